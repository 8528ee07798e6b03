import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Result } from '../../src-shared/contract/errors';
import type { ProxyInfo } from '../../src-shared/contract/methods';
import type { StorageStatus } from '../../src-shared/domain/storage-status';
import type { ApiClient } from '../api/api-client';
import type { Loadable } from './load-status';

/** The proxy itself: its URL, version and whether it is paused. */
export interface AppState extends Loadable {
  info: ProxyInfo | null;
  load(): Promise<void>;
  setPaused(paused: boolean): Promise<Result<ProxyInfo>>;
  applyPaused(paused: boolean): void;
  /** Issue 21 §16: the `storage.changed` event's status (the header's banner reads `info.storage`). */
  applyStorage(storage: StorageStatus): void;
}

export type AppStore = StoreApi<AppState>;

export function createAppStore(api: ApiClient): AppStore {
  return createStore<AppState>()((set, get) => ({
    info: null,
    status: 'idle',
    error: null,
    async load() {
      if (get().status !== 'ready') set({ status: 'loading', error: null });
      const result = await api.call('app.info');
      if (result.ok) set({ info: result.value, status: 'ready', error: null });
      else set({ status: 'error', error: result.error });
    },
    async setPaused(paused) {
      const result = await api.call('app.setPaused', { paused });
      if (result.ok) set({ info: result.value });
      return result;
    },
    applyPaused(paused) {
      const info = get().info;
      if (info) set({ info: { ...info, paused } });
    },
    applyStorage(storage) {
      const info = get().info;
      if (info) set({ info: { ...info, storage } });
    },
  }));
}
