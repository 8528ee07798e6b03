import type { BreakerRowStore } from '../resilience-stores';
import { restoreBreakerState, type BreakerState } from './breaker-state';

/** Provider breakers as the engine keeps them (BRK-7), over their stored rows. */
export interface BreakerRepo {
  loadAll(): Map<string, BreakerState>;
  save(provider: string, state: BreakerState, now: number): void;
  remove(provider: string): void;
}

export function createBreakerRepo(rows: BreakerRowStore): BreakerRepo {
  return {
    loadAll() {
      const map = new Map<string, BreakerState>();
      for (const row of rows.loadAll()) {
        let parsed: unknown = null;
        try {
          parsed = JSON.parse(row.json);
        } catch {
          // restoreBreakerState turns anything invalid into CLOSED.
        }
        map.set(row.provider, restoreBreakerState(parsed));
      }
      return map;
    },
    save: (provider, state, now) => rows.save(provider, JSON.stringify(state), now),
    remove: (provider) => rows.remove(provider),
  };
}
