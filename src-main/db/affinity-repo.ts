import { expiredPinKeys, pinKeyOf, type Pin } from '../routing/affinity/pin';
import type { Database } from './open';

/**
 * Session pins (AFF-4) with write-behind: the in-memory map is the source of truth while running,
 * so the request path reads and writes no SQLite; changes reach the table in one transaction per
 * flush (the core's request-log timer, and on stop).
 *
 * Why this is correct: one process owns the database and loaded every live row at start, so memory
 * starts equal to the table; every change goes to memory first and records the key's final state
 * (last write wins per key), so a flush writes exactly the difference. Rows are independent, so
 * their order inside the batch does not matter. A crash loses at most one flush interval of
 * creations and extensions, and a pin is a soft preference (AFF-6): the cost is one session
 * starting over on another account, never a wrong answer.
 */
export interface AffinityRepo {
  /** The stored pin for a scope key (`pinKeyOf`), live or not: the engine decides. Memory only. */
  get(key: string): Pin | undefined;
  /**
   * Stores a created, extended or moved pin; written on the next flush. `key` is `pinKeyOf(pin)`,
   * passed by a caller that already built it (the plan did, for the same scope).
   */
  put(pin: Pin, key?: string): void;
  /** Every pin in memory, for the dashboard. */
  list(): Pin[];
  /** Drops every pin, one connection's, or one key's; returns how many went. */
  clear(match: 'all' | { connectionId: string } | { keyId: string } | { key: string }): number;
  /** Drops pins past their expiry; returns how many. */
  prune(now: number): number;
  /** Writes pending changes in one transaction; on failure they stay pending and the error is thrown. */
  flush(): void;
  /** Keys waiting for a flush. */
  pendingWrites(): number;
}

interface PinRow {
  key_id: string;
  session: string;
  target: string;
  connection_id: string;
  created_at: number;
  last_served_at: number;
  expires_at: number;
}

type Pending = { kind: 'upsert'; pin: Pin } | { kind: 'delete'; pin: Pin };

const toRow = (pin: Pin): PinRow => ({
  key_id: pin.keyId,
  session: pin.session,
  target: pin.target,
  connection_id: pin.connectionId,
  created_at: pin.createdAt,
  last_served_at: pin.lastServedAt,
  expires_at: pin.expiresAt,
});

const fromRow = (row: PinRow): Pin => ({
  keyId: row.key_id,
  session: row.session,
  target: row.target,
  connectionId: row.connection_id,
  createdAt: row.created_at,
  lastServedAt: row.last_served_at,
  expiresAt: row.expires_at,
});

/** Loads the live pins (deleting expired rows) and prepares every statement once. One per database. */
export function createAffinityRepo(db: Database, now: number): AffinityRepo {
  // A pin whose key or connection was deleted meanwhile is skipped, not failed: one such row must
  // not sink the whole batch (the foreign keys would refuse it).
  const upsert = db.prepare<[PinRow]>(`
    INSERT INTO session_account_affinity (key_id, session, target, connection_id, created_at, last_served_at, expires_at)
    SELECT @key_id, @session, @target, @connection_id, @created_at, @last_served_at, @expires_at
    WHERE EXISTS (SELECT 1 FROM local_keys WHERE id = @key_id) AND EXISTS (SELECT 1 FROM connections WHERE id = @connection_id)
    ON CONFLICT (key_id, session, target) DO UPDATE SET connection_id = excluded.connection_id,
      created_at = excluded.created_at, last_served_at = excluded.last_served_at, expires_at = excluded.expires_at`);
  const remove = db.prepare<[{ key_id: string; session: string; target: string }]>(
    'DELETE FROM session_account_affinity WHERE key_id = @key_id AND session = @session AND target = @target',
  );
  db.prepare<[number]>('DELETE FROM session_account_affinity WHERE expires_at <= ?').run(now);
  const rows = db.prepare<[], PinRow>('SELECT * FROM session_account_affinity').all();

  const pins = new Map<string, Pin>();
  for (const row of rows) {
    const pin = fromRow(row);
    pins.set(pinKeyOf(pin), pin);
  }
  let pending = new Map<string, Pending>();

  const writeAll = db.transaction((batch: Map<string, Pending>) => {
    for (const change of batch.values()) {
      if (change.kind === 'upsert') upsert.run(toRow(change.pin));
      else remove.run({ key_id: change.pin.keyId, session: change.pin.session, target: change.pin.target });
    }
  });

  const drop = (key: string): boolean => {
    const pin = pins.get(key);
    if (!pin) return false;
    pins.delete(key);
    pending.set(key, { kind: 'delete', pin });
    return true;
  };

  return {
    get: (key) => pins.get(key),
    put: (pin, key = pinKeyOf(pin)) => {
      pins.set(key, pin);
      // A session's pin is extended on every request: between flushes, one pending entry per key.
      const waiting = pending.get(key);
      if (waiting?.kind === 'upsert') waiting.pin = pin;
      else pending.set(key, { kind: 'upsert', pin });
    },
    list: () => [...pins.values()],
    clear: (match) => {
      if (typeof match === 'object' && 'key' in match) return drop(match.key) ? 1 : 0;
      let count = 0;
      for (const [key, pin] of pins) {
        const hit =
          match === 'all' || ('keyId' in match ? pin.keyId === match.keyId : pin.connectionId === match.connectionId);
        if (hit && drop(key)) count++;
      }
      return count;
    },
    prune: (at) => {
      let count = 0;
      for (const key of expiredPinKeys(pins, at)) if (drop(key)) count++;
      return count;
    },
    flush: () => {
      if (pending.size === 0) return;
      const batch = pending;
      pending = new Map();
      try {
        writeAll(batch);
      } catch (error) {
        // Keep the failed changes, but never over a newer change made since the swap.
        for (const [key, change] of batch) if (!pending.has(key)) pending.set(key, change);
        throw error;
      }
    },
    pendingWrites: () => pending.size,
  };
}
