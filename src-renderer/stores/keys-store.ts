import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Result } from '../../src-shared/contract/errors';
import type { CreatedLocalKey, LocalKeyInput, LocalKeyView } from '../../src-shared/domain/local-key';
import type { ApiClient } from '../api/api-client';
import { listSlice, type ListState } from './list-store';

/** Local API keys, plus the one plain key just created, kept in memory only until dismissed. */
export interface KeysState extends ListState<LocalKeyView> {
  lastCreated: CreatedLocalKey | null;
  /** `access`: scopes and allowed connections (issue 9); none = no scopes, every connection. */
  create(name: string, access?: Pick<LocalKeyInput, 'scopes' | 'allowedConnections'>): Promise<Result<CreatedLocalKey>>;
  revoke(id: string): Promise<Result<{ revoked: boolean }>>;
  dismissCreated(): void;
}

export type KeysStore = StoreApi<KeysState>;

export function createKeysStore(api: ApiClient): KeysStore {
  return createStore<KeysState>()((set, get, store) => ({
    ...listSlice<LocalKeyView, KeysState>(() => api.call('keys.list'))(set, get, store),
    lastCreated: null,
    async create(name, access) {
      const result = await api.call('keys.create', { name, ...access });
      if (result.ok) {
        // Show the new key at once, even before the keys.changed event arrives.
        const others = get().items.filter((k) => k.id !== result.value.key.id);
        get().apply([...others, result.value.key]);
        set({ lastCreated: result.value });
      }
      return result;
    },
    revoke: (id) => api.call('keys.revoke', { id }),
    dismissCreated: () => set({ lastCreated: null }),
  }));
}
