import { useEffect, useState } from 'react';
import { onEventType } from '../../api/api-client';
import { useApi } from '../../api/api-context';
import { createActivityViewStore, type ActivityViewStore } from './activity-view-store';

/**
 * The Activity tab's store for as long as the tab is shown: first page on mount, live rows from
 * `activity.request`, a reload after an event-stream gap (like use-sessions, it feeds itself).
 */
export function useActivityView(): ActivityViewStore {
  const api = useApi();
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
