import { useEffect } from 'react';
import { useStore } from 'zustand';
import { useApi } from '../../api/api-context';
import { useStores } from '../../stores/stores-context';
import type { QuotaState } from '../../stores/quota-store';

/** QUI-9: how often the pool list is re-read while the Quota tab is shown. */
export const POOLS_REFRESH_MS = 30_000;

/**
 * The pool list, loaded when the tab mounts, re-read every 30 s while it is shown and after an
 * event-stream gap; the timer stops when the tab goes away. `first` runs once after the first load
 * (the legacy migration needs to know whether the list was empty).
 */
export function usePools(refreshMs = POOLS_REFRESH_MS, first?: () => Promise<void>): QuotaState {
  const api = useApi();
  const { quota } = useStores();
  useEffect(() => {
    let live = true;
    const load = (): void => void quota.getState().load();
    void quota
      .getState()
      .load()
      .then(() => (live && first ? first() : undefined));
    const timer = setInterval(load, refreshMs);
    const offReconnect = api.onReconnect(load);
    return () => {
      live = false;
      clearInterval(timer);
      offReconnect();
    };
    // `first` is a mount-time action; a new function identity must not restart the polling.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, quota, refreshMs]);
  return useStore(quota);
}
