import { restoreBreakerState, type BreakerState } from '../resilience/breaker/breaker-state';
import type { Database } from './open';
import { guardedWrite } from './storage-health';

/** Persists provider breakers (BRK-7) so a restart does not hammer a provider that was just found dead. */
export interface BreakerRepo {
  loadAll(): Map<string, BreakerState>;
  save(provider: string, state: BreakerState, now: number): void;
  remove(provider: string): void;
}

export function createBreakerRepo(db: Database): BreakerRepo {
  const selectAll = db.prepare<[], { provider: string; state_json: string }>(
    'SELECT provider, state_json FROM provider_breakers',
  );
  const upsert = db.prepare(`INSERT INTO provider_breakers (provider, state_json, updated_at) VALUES (?, ?, ?)
    ON CONFLICT(provider) DO UPDATE SET state_json = excluded.state_json, updated_at = excluded.updated_at`);
  const del = db.prepare('DELETE FROM provider_breakers WHERE provider = ?');
  return {
    loadAll() {
      const map = new Map<string, BreakerState>();
      for (const row of selectAll.all()) {
        let parsed: unknown = null;
        try {
          parsed = JSON.parse(row.state_json);
        } catch {
          // restoreBreakerState turns anything invalid into CLOSED.
        }
        map.set(row.provider, restoreBreakerState(parsed));
      }
      return map;
    },
    // Learned on a request's path: a disk that refuses keeps the latest in memory for recovery (issue 21 §16).
    save: (provider, state, now) =>
      guardedWrite(db, `breaker:${provider}`, () => void upsert.run(provider, JSON.stringify(state), now)),
    remove: (provider) => guardedWrite(db, `breaker:${provider}`, () => void del.run(provider)),
  };
}
