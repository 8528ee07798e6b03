import { createStore, type StateCreator, type StoreApi } from 'zustand/vanilla';
import type { Result } from '../../src-shared/contract/errors';
import type { Loadable } from './load-status';

/** A domain list kept whole: a snapshot to start, then each `*.changed` event replaces it. */
export interface ListState<T> extends Loadable {
  items: T[];
  load(): Promise<void>;
  /** Replaces the list with the one an event carried. */
  apply(items: T[]): void;
}

export type ListStore<T> = StoreApi<ListState<T>>;

/** The list behaviour as a zustand slice, so a richer store (keys) can add its own actions. */
export function listSlice<T, S extends ListState<T>>(
  fetchList: () => Promise<Result<T[]>>,
): StateCreator<S, [], [], ListState<T>> {
  // Bumped by every event; a snapshot requested before an event arrived is older than it, so it is dropped.
  let version = 0;
  return (set, get) => ({
    items: [],
    status: 'idle',
    error: null,
    async load() {
      const started = version;
      // A reload keeps showing the old list rather than flashing a spinner.
      if (get().status !== 'ready') set({ status: 'loading', error: null } as Partial<S>);
      const result = await fetchList();
      if (version !== started) return;
      if (result.ok) set({ items: result.value, status: 'ready', error: null } as Partial<S>);
      else set({ status: 'error', error: result.error } as Partial<S>);
    },
    apply(items) {
      version++;
      set({ items, status: 'ready', error: null } as Partial<S>);
    },
  });
}

export function createListStore<T>(fetchList: () => Promise<Result<T[]>>): ListStore<T> {
  return createStore<ListState<T>>()(listSlice<T, ListState<T>>(fetchList));
}
