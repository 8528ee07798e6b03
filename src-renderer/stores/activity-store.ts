import { createStore, type StoreApi } from 'zustand/vanilla';
import type { RequestLogEntry } from '../../src-shared/domain/request-log';
import type { ApiClient } from '../api/api-client';
import type { Loadable } from './load-status';

/** How many recent requests one page holds; older ones stay in the core's log until "Load older". */
export const ACTIVITY_LIMIT = 100;

/** Which requests the log shows; an empty field matches everything. */
export interface ActivityFilter {
  connection?: string;
  model?: string;
  status?: 'ok' | 'error';
}

export interface ActivityState extends Loadable {
  /** Newest first. */
  entries: RequestLogEntry[];
  filter: ActivityFilter;
  /** How many entries are kept: one page, plus one per "Load older"; live requests push the oldest out. */
  limit: number;
  /** False once the core answered a page with fewer rows than asked: nothing older matches. */
  hasMore: boolean;
  loadingOlder: boolean;
  load(): Promise<void>;
  setFilter(filter: ActivityFilter): Promise<void>;
  loadOlder(): Promise<void>;
  /** A live request; kept only when it matches the filter. */
  add(entry: RequestLogEntry): void;
}

export type ActivityStore = StoreApi<ActivityState>;

/** Merges by id, newest first, capped: snapshots and live events may overlap in either order. */
export function mergeEntries(
  current: RequestLogEntry[],
  incoming: RequestLogEntry[],
  limit = ACTIVITY_LIMIT,
): RequestLogEntry[] {
  const byId = new Map<number, RequestLogEntry>();
  for (const entry of [...current, ...incoming]) byId.set(entry.id, entry);
  return [...byId.values()].sort((a, b) => b.id - a.id).slice(0, limit);
}

/** The same test the core's `activity.list` applies: ok is any status below 400. */
export function matchesFilter(entry: RequestLogEntry, filter: ActivityFilter): boolean {
  if (filter.connection !== undefined && entry.connection !== filter.connection) return false;
  if (filter.model !== undefined && entry.model !== filter.model) return false;
  if (filter.status !== undefined && (filter.status === 'ok') !== entry.status < 400) return false;
  return true;
}

const clean = (filter: ActivityFilter): ActivityFilter => ({
  ...(filter.connection ? { connection: filter.connection } : {}),
  ...(filter.model ? { model: filter.model } : {}),
  ...(filter.status ? { status: filter.status } : {}),
});

export function createActivityStore(api: ApiClient): ActivityStore {
  // Bumped by each filter change, so a page requested under an old filter is dropped.
  let generation = 0;
  return createStore<ActivityState>()((set, get) => ({
    entries: [],
    filter: {},
    limit: ACTIVITY_LIMIT,
    hasMore: false,
    loadingOlder: false,
    status: 'idle',
    error: null,
    async load() {
      const started = generation;
      if (get().status !== 'ready') set({ status: 'loading', error: null });
      const result = await api.call('activity.list', { ...get().filter, limit: ACTIVITY_LIMIT });
      if (generation !== started) return;
      if (!result.ok) return set({ status: 'error', error: result.error });
      const entries = mergeEntries(get().entries, result.value, get().limit);
      // A full page means older rows may exist; a reload never forgets that older pages were left unread.
      const hasMore = result.value.length >= ACTIVITY_LIMIT || (get().status === 'ready' && get().hasMore);
      set({ entries, hasMore, status: 'ready', error: null });
    },
    async setFilter(filter) {
      generation++;
      set({
        filter: clean(filter),
        entries: [],
        limit: ACTIVITY_LIMIT,
        hasMore: false,
        loadingOlder: false,
        status: 'loading',
        error: null,
      });
      await get().load();
    },
    async loadOlder() {
      const { entries, filter, loadingOlder } = get();
      const oldest = entries[entries.length - 1];
      if (loadingOlder || !oldest) return;
      const started = generation;
      set({ loadingOlder: true });
      const result = await api.call('activity.list', { ...filter, beforeId: oldest.id, limit: ACTIVITY_LIMIT });
      if (generation !== started) return;
      if (!result.ok) return set({ loadingOlder: false, error: result.error });
      const limit = get().limit + ACTIVITY_LIMIT;
      set({
        entries: mergeEntries(get().entries, result.value, limit),
        limit,
        hasMore: result.value.length >= ACTIVITY_LIMIT,
        loadingOlder: false,
        error: null,
      });
    },
    add(entry) {
      if (!matchesFilter(entry, get().filter)) return;
      set({ entries: mergeEntries(get().entries, [entry], get().limit) });
    },
  }));
}
