import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Result } from '../../src-shared/contract/errors';
import type { ConnectionView } from '../../src-shared/domain/connection';
import type { CooldownClear, CooldownSnapshot } from '../../src-shared/domain/cooldown';
import type { ApiClient } from '../api/api-client';
import type { Loadable } from './load-status';

/** Everything keeping a target from serving, as the core last reported it (COOL-2, BRK, PROV-9, LOCK-7). */
export interface CooldownsState extends Loadable {
  snapshot: CooldownSnapshot | null;
  /**
   * Local `Date.now()` when the snapshot arrived. Countdowns run on the core's clock as
   * `snapshot.now + (Date.now() - receivedAt)`, so a skewed local clock never shows a wrong time left.
   */
  receivedAt: number;
  load(): Promise<void>;
  /** Replaces the snapshot with the one a `cooldowns.changed` event carried. */
  apply(snapshot: CooldownSnapshot): void;
  /** Clears transient state only; terminal states stay (COOL-10). Re-reads the snapshot on success. */
  clear(target: CooldownClear): Promise<Result<{ cleared: number }>>;
  /** Clears everything of one connection, terminal state included ("Reset connection"). */
  resetConnection(name: string): Promise<Result<ConnectionView>>;
}

export type CooldownsStore = StoreApi<CooldownsState>;

export function createCooldownsStore(api: ApiClient, clock: () => number = () => Date.now()): CooldownsStore {
  // Bumped by every event; a snapshot requested before an event arrived is older than it, so it is dropped.
  let version = 0;
  return createStore<CooldownsState>()((set, get) => {
    const afterAction = <T>(result: Result<T>): Result<T> => {
      // The core also pushes cooldowns.changed (coalesced per tick); re-reading shows the outcome at once.
      void get().load();
      return result;
    };
    return {
      snapshot: null,
      receivedAt: 0,
      status: 'idle',
      error: null,
      async load() {
        const started = version;
        if (get().status !== 'ready') set({ status: 'loading', error: null });
        const result = await api.call('cooldowns.list');
        if (version !== started) return;
        if (result.ok) set({ snapshot: result.value, receivedAt: clock(), status: 'ready', error: null });
        else set({ status: 'error', error: result.error });
      },
      apply(snapshot) {
        version++;
        set({ snapshot, receivedAt: clock(), status: 'ready', error: null });
      },
      async clear(target) {
        return afterAction(await api.call('cooldowns.clear', target));
      },
      async resetConnection(name) {
        return afterAction(await api.call('connections.reset', { name }));
      },
    };
  });
}

/** The core's clock now, estimated from the snapshot and the local time elapsed since it arrived. */
export function coreNow(state: Pick<CooldownsState, 'snapshot' | 'receivedAt'>, localNow: number): number {
  if (!state.snapshot) return localNow;
  return state.snapshot.now + Math.max(0, localNow - state.receivedAt);
}
