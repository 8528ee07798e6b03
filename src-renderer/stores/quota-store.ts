import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Result } from '../../src-shared/contract/errors';
import type { QuotaPoolInput, QuotaPoolView } from '../../src-shared/domain/quota';
import type { ApiClient } from '../api/api-client';
import { listSlice, type ListState } from './list-store';

/**
 * Quota pools (QUI-9): the list as `quota.listPools` answers it. The Quota tab loads and polls it
 * while shown; saves and deletes put the answer in at once rather than waiting for the next poll.
 */
export interface QuotaState extends ListState<QuotaPoolView> {
  upsert(input: QuotaPoolInput): Promise<Result<QuotaPoolView>>;
  remove(name: string): Promise<Result<{ removed: boolean }>>;
}

export type QuotaStore = StoreApi<QuotaState>;

export function createQuotaStore(api: ApiClient): QuotaStore {
  return createStore<QuotaState>()((set, get, store) => ({
    ...listSlice<QuotaPoolView, QuotaState>(() => api.call('quota.listPools'))(set, get, store),
    async upsert(input) {
      const result = await api.call('quota.upsertPool', input);
      if (result.ok) {
        const others = get().items.filter((p) => p.id !== result.value.id);
        const at = get().items.findIndex((p) => p.id === result.value.id);
        get().apply(
          at < 0 ? [...others, result.value] : get().items.map((p) => (p.id === result.value.id ? result.value : p)),
        );
      }
      return result;
    },
    async remove(name) {
      const result = await api.call('quota.removePool', { name });
      if (result.ok) get().apply(get().items.filter((p) => p.name !== name));
      return result;
    },
  }));
}
