import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { onEventType } from '../../api/api-client';
import { useApi } from '../../api/api-context';
import { createOverviewStore, type OverviewState } from '../../stores/overview-store';

/** With no traffic the window still slides: re-read once a minute so old buckets leave the chart. */
export const SLIDE_REFRESH_MS = 60_000;

/**
 * The Overview's store for as long as the tab is shown: loaded on mount, refreshed (throttled) after
 * each `activity.request`, after an event-stream gap and once a minute; nothing runs once it is gone.
 */
export function useOverview(): OverviewState {
  const api = useApi();
  const [store] = useState(() => createOverviewStore(api));
  useEffect(() => {
    const load = (): void => void store.getState().load();
    const offRequest = onEventType(api, 'activity.request', () => store.getState().noteRequest());
    const offReconnect = api.onReconnect(load);
    const timer = setInterval(load, SLIDE_REFRESH_MS);
    load();
    return () => {
      offRequest();
      offReconnect();
      clearInterval(timer);
      store.getState().dispose();
    };
  }, [api, store]);
  return useStore(store);
}
