import { expiredPinKeys, pinKeyOf, type Pin } from './pin';

/** A change to one stored pin, written on the next flush. */
export type PinChange = { kind: 'upsert'; pin: Pin } | { kind: 'delete'; pin: Pin };

/** What a watcher hears (issue 24 §4, the team share): a stored pin, or one cleared on request (not pruned). */
export type PinEvent = { kind: 'put' | 'cleared'; pin: Pin; key: string };

/** Where pins persist (db/affinity-rows.ts implements it with SQL only). */
export interface PinRows {
  /** Deletes the rows expired at `now` and returns the rest. */
  loadLive(now: number): Pin[];
  /** Writes every change in one transaction; throws (and keeps nothing) when it fails. */
  writeAll(changes: readonly PinChange[]): void;
}

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
  /** Hears every put and every clear, after memory changed (the team share publishes them). */
  watch(listener: (event: PinEvent) => void): void;
}

/** The pins over their stored rows: the live ones loaded at start (expired rows deleted then). */
export function createAffinityRepo(rows: PinRows, now: number): AffinityRepo {
  const pins = new Map<string, Pin>();
  for (const pin of rows.loadLive(now)) pins.set(pinKeyOf(pin), pin);
  let pending = new Map<string, PinChange>();
  const listeners: Array<(event: PinEvent) => void> = [];
  const tell = (event: PinEvent): void => {
    for (const listener of listeners) listener(event);
  };

  const drop = (key: string, cleared = false): boolean => {
    const pin = pins.get(key);
    if (!pin) return false;
    pins.delete(key);
    pending.set(key, { kind: 'delete', pin });
    if (cleared && listeners.length > 0) tell({ kind: 'cleared', pin, key });
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
      if (listeners.length > 0) tell({ kind: 'put', pin, key });
    },
    list: () => [...pins.values()],
    clear: (match) => {
      if (typeof match === 'object' && 'key' in match) return drop(match.key, true) ? 1 : 0;
      let count = 0;
      for (const [key, pin] of pins) {
        const hit =
          match === 'all' || ('keyId' in match ? pin.keyId === match.keyId : pin.connectionId === match.connectionId);
        if (hit && drop(key, true)) count++;
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
        rows.writeAll([...batch.values()]);
      } catch (error) {
        // Keep the failed changes, but never over a newer change made since the swap.
        for (const [key, change] of batch) if (!pending.has(key)) pending.set(key, change);
        throw error;
      }
    },
    pendingWrites: () => pending.size,
    watch: (listener) => void listeners.push(listener),
  };
}
