import type { ConnectionView } from '../../src-shared/domain/connection';
import type { ApiClient } from '../api/api-client';
import { createListStore, type ListStore } from './list-store';

/** Upstream connections as the core reports them, secrets already reduced to hints. */
export function createConnectionsStore(api: ApiClient): ListStore<ConnectionView> {
  return createListStore(() => api.call('connections.list'));
}
