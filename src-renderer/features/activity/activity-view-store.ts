import { createStore, type StoreApi } from 'zustand/vanilla';
import {
  matchesRequestLogFilter,
  type RequestLogEntry,
  type RequestLogFilter,
} from '../../../src-shared/domain/request-log';
import type { AppError } from '../../../src-shared/contract/errors';
import type { ApiClient } from '../../api/api-client';
import { ACTIVITY_LIMIT, mergeEntries } from './activity-entries';
import { NO_FILTER, toLogFilter, type ActivityViewFilter } from './activity-range';

export interface ActivityViewState {
  /** The first page's: a spinner, the rows, or the error with "Try again". */
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** The last read's refusal (a failed "Load older" shows it under the rows). */
  error: AppError | null;
  /** Newest first. */
  entries: RequestLogEntry[];
  filter: ActivityViewFilter;
  /** The filter as last sent to the core (a `last hour` range fixed at that moment); older pages use it too. */
  query: RequestLogFilter;
  /** One page, plus one per "Load older"; live requests push the oldest out. */
  limit: number;
  /** False once the core answered a page with fewer rows than asked: nothing older matches. */
  hasMore: boolean;
  loadingOlder: boolean;
  load(): Promise<void>;
  setFilter(filter: ActivityViewFilter): Promise<void>;
  loadOlder(): Promise<void>;
  /** A live request; kept only when it matches the filter. */
  add(entry: RequestLogEntry): void;
}

export type ActivityViewStore = StoreApi<ActivityViewState>;

/**
 * The Activity tab's own view of the log (issue 13 §3): connection, model and status filters plus a
 * time range and a search, all applied by the core so older pages match too. Not a resource: it is
 * a query browser (filters, pages, live rows merged in), held by the tab for as long as it is shown.
 */
export function createActivityViewStore(api: ApiClient, now: () => number = Date.now): ActivityViewStore {
  // Bumped by each filter change, so a page requested under an old filter is dropped.
  let generation = 0;
  return createStore<ActivityViewState>()((set, get) => ({
    entries: [],
    filter: NO_FILTER,
    query: {},
    limit: ACTIVITY_LIMIT,
    hasMore: false,
    loadingOlder: false,
    status: 'idle',
    error: null,
    async load() {
      const started = generation;
      const query = toLogFilter(get().filter, now());
      if (get().status !== 'ready') set({ status: 'loading', error: null });
      const result = await api.call('activity.list', { ...query, limit: ACTIVITY_LIMIT });
      if (generation !== started) return;
      if (!result.ok) return set({ status: 'error', error: result.error });
      const entries = mergeEntries(get().entries, result.value, get().limit);
      // A full page means older rows may exist; a reload never forgets that older pages were left unread.
      const hasMore = result.value.length >= ACTIVITY_LIMIT || (get().status === 'ready' && get().hasMore);
      set({ entries, query, hasMore, status: 'ready', error: null });
    },
    async setFilter(filter) {
      generation++;
      set({
        filter,
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
      const { entries, query, loadingOlder } = get();
      const oldest = entries[entries.length - 1];
      if (loadingOlder || !oldest) return;
      const started = generation;
      set({ loadingOlder: true });
      const result = await api.call('activity.list', { ...query, beforeId: oldest.id, limit: ACTIVITY_LIMIT });
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
      // Tested against the filter in force now (a page may still be loading under it).
      if (!matchesRequestLogFilter(entry, toLogFilter(get().filter, now()))) return;
      set({ entries: mergeEntries(get().entries, [entry], get().limit) });
    },
  }));
}
