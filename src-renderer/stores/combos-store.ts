import type { ComboView } from '../../src-shared/domain/combo';
import type { ApiClient } from '../api/api-client';
import { createListStore, type ListStore } from './list-store';

/** Routing groups (combos) and their ordered targets. */
export function createCombosStore(api: ApiClient): ListStore<ComboView> {
  return createListStore(() => api.call('combos.list'));
}
