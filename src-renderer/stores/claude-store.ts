import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Result } from '../../src-shared/contract/errors';
import type { MethodInput } from '../../src-shared/contract/methods';
import type { ClaudeConnectionStatus } from '../../src-shared/domain/claude';
import type { ConnectionView } from '../../src-shared/domain/connection';
import type { ApiClient } from '../api/api-client';
import { listSlice, type ListState } from './list-store';

/** Usage windows, low-priority lane and last limit reset of each Claude subscription connection. */
export interface ClaudeState extends ListState<ClaudeConnectionStatus> {
  /** Imports Claude Code's local login as a claude-oauth connection (a new credential also ends needs_reauth). */
  importCredentials(input: MethodInput<'claude.importCredentials'>): Promise<Result<ConnectionView>>;
}

export type ClaudeStore = StoreApi<ClaudeState>;

/** Fed by the `claude.status` snapshot, then replaced by each `claude.changed` event. */
export function createClaudeStore(api: ApiClient): ClaudeStore {
  return createStore<ClaudeState>()((set, get, store) => ({
    ...listSlice<ClaudeConnectionStatus, ClaudeState>(() => api.call('claude.status'))(set, get, store),
    async importCredentials(input) {
      const result = await api.call('claude.importCredentials', input);
      // A re-import resets the connection: re-read the status rather than wait for an event.
      if (result.ok) void get().load();
      return result;
    },
  }));
}

/** The status of one connection; a connection without an entry has seen no usage and an idle lane. */
export function claudeStatusOf(
  items: readonly ClaudeConnectionStatus[],
  connectionId: string,
): ClaudeConnectionStatus | undefined {
  return items.find((s) => s.connectionId === connectionId);
}
