import { createStore, type StoreApi } from 'zustand/vanilla';
import type { RequestLogEntry } from '../../src-shared/domain/request-log';
import type { ApiClient } from '../api/api-client';
import type { Loadable } from './load-status';

/** How many recent requests the dashboard keeps; older ones stay in the core's log. */
export const ACTIVITY_LIMIT = 100;

export interface ActivityState extends Loadable {
  /** Newest first. */
  entries: RequestLogEntry[];
  load(): Promise<void>;
  add(entry: RequestLogEntry): void;
}

export type ActivityStore = StoreApi<ActivityState>;

/** Merges by id, newest first, capped: snapshots and live events may overlap in either order. */
export function mergeEntries(current: RequestLogEntry[], incoming: RequestLogEntry[]): RequestLogEntry[] {
  const byId = new Map<number, RequestLogEntry>();
  for (const entry of [...current, ...incoming]) byId.set(entry.id, entry);
  return [...byId.values()].sort((a, b) => b.id - a.id).slice(0, ACTIVITY_LIMIT);
}

export function createActivityStore(api: ApiClient): ActivityStore {
  return createStore<ActivityState>()((set, get) => ({
    entries: [],
    status: 'idle',
    error: null,
    async load() {
      if (get().status !== 'ready') set({ status: 'loading', error: null });
      const result = await api.call('activity.list', { limit: ACTIVITY_LIMIT });
      if (result.ok) set({ entries: mergeEntries(get().entries, result.value), status: 'ready', error: null });
      else set({ status: 'error', error: result.error });
    },
    add(entry) {
      set({ entries: mergeEntries(get().entries, [entry]) });
    },
  }));
}
