import { IDLE_LANE, isLaneActive, type LaneEntry } from './lane-state';

/** Every connection's lane, in insertion order; memory only and never persisted (LOWP-13). */
export type LaneStore = ReadonlyMap<string, LaneEntry>;

/** Token-keyed entries rotate on refresh, so the store forgets its oldest keys past this. */
export const LANE_STORE_LIMIT = 10_000;

export const EMPTY_LANE_STORE: LaneStore = new Map();

/** The entry under `key`, or an idle one for a connection that never met the wall. */
export function getLaneEntry(store: LaneStore, key: string): LaneEntry {
  return store.get(key) ?? IDLE_LANE;
}

/**
 * Stores an entry, returning the same store when nothing changed so callers can skip work. A
 * new key past the limit evicts the oldest (FIFO); an existing key keeps its place.
 */
export function putLaneEntry(store: LaneStore, key: string, entry: LaneEntry, limit = LANE_STORE_LIMIT): LaneStore {
  if (store.get(key) === entry) return store;
  if (!store.has(key) && entry === IDLE_LANE) return store;
  const next = new Map(store);
  if (!next.has(key)) {
    for (const oldest of next.keys()) {
      if (next.size < limit) break;
      next.delete(oldest);
    }
  }
  next.set(key, entry);
  return next;
}

/**
 * Before each fetch: whether to stamp `anthropic-usage-limit: slow` (LOWP-5). Lazy expiry is
 * applied on read; the stored entry catches up with the next response.
 */
export function shouldSendSlow(store: LaneStore, key: string, now: number): boolean {
  const entry = store.get(key);
  return entry !== undefined && isLaneActive(entry, now);
}
