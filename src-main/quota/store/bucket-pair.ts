import { bucketIndexOf, slidingValue } from '../engine/sliding-window';

/**
 * One (key, dimension)'s two buckets as the SQLite store keeps them in memory: `curr` is bucket
 * `index`, `prev` is bucket `index − 1` (QWIN-1), each with the time it was last written (the row's
 * `updated_at`, 0 when there is no row). Only ever moved forward in time.
 */
export interface BucketPair {
  index: number;
  prev: number;
  curr: number;
  prevAt: number;
  currAt: number;
  /** Latest `now` that read or wrote this pair: GC drops pairs nobody touched within retention. */
  touchedAt: number;
}

/**
 * The prev bucket's value as seen from bucket `index`, without changing the pair (two functions, not
 * one returning an object: the request path reads every key of a pool). A read from the past (a `now` older than the last write) sees its own bucket as our prev; the one before
 * it is no longer kept, so it counts as 0 (a slight under-count, never an over-count).
 */
export function viewPrev(pair: BucketPair, index: number): number {
  const shift = index - pair.index;
  return shift === 0 ? pair.prev : shift === 1 ? pair.curr : 0;
}

/** The curr bucket's value as seen from bucket `index` (see `viewPrev`). */
export function viewCurr(pair: BucketPair, index: number): number {
  const shift = index - pair.index;
  return shift === 0 ? pair.curr : shift === -1 ? pair.prev : 0;
}

/** Moves the pair forward to bucket `index`: curr becomes prev, or both empty after a gap of ≥ 2 windows. */
export function rollTo(pair: BucketPair, index: number): void {
  const shift = index - pair.index;
  if (shift <= 0) return;
  if (shift === 1) {
    pair.prev = pair.curr;
    pair.prevAt = pair.currAt;
  } else {
    pair.prev = 0;
    pair.prevAt = 0;
  }
  pair.curr = 0;
  pair.currAt = 0;
  pair.index = index;
}

/** QWIN-2 over the pair at `now`. */
export function effectiveAt(pair: BucketPair, now: number, windowMs: number): number {
  const index = bucketIndexOf(now, windowMs);
  return slidingValue(viewPrev(pair, index), viewCurr(pair, index), now, windowMs);
}
