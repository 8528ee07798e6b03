import { useEffect, useState } from 'react';
import { onEventType } from '../../api/api-client';
import { useResourceCache } from '../../resources/resource-context';
import { createActivityViewStore, type ActivityViewStore } from './activity-view-store';

/**
 * The Activity tab's store for as long as the tab is shown: first page on mount, live rows from
 * `activity.request`, a reload after an event-stream gap (it feeds itself).
 */
export function useActivityView(): ActivityViewStore {
  const { api } = useResourceCache();
  const [store] = useState(() => createActivityViewStore(api));
  useEffect(() => {
    const offRequest = onEventType(api, 'activity.request', ({ entry }) => store.getState().add(entry));
    const offReconnect = api.onReconnect(() => void store.getState().load());
    void store.getState().load();
    return () => {
      offRequest();
      offReconnect();
    };
  }, [api, store]);
  return store;
}
