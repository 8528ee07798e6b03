/**
 * The two-bucket sliding counter (QWIN-1/2) as arithmetic: the stores keep `prev` (bucket index − 1)
 * and `curr` (bucket index), this file turns them into the effective value and into "how long until
 * it falls below X" for Retry-After. Times are epoch milliseconds passed in.
 */

/** QWIN-1: the index of the bucket `now` falls in. */
export function bucketIndexOf(now: number, windowMs: number): number {
  return Math.floor(now / windowMs);
}

/** QWIN-2: `prev × (1 − elapsed / windowMs) + curr`, elapsed measured from the current bucket's start. */
export function slidingValue(prev: number, curr: number, now: number, windowMs: number): number {
  const elapsed = now - Math.floor(now / windowMs) * windowMs;
  return prev * (1 - elapsed / windowMs) + curr;
}

/** The counter address `<poolId>:<unit>:<window>` (REFERENCE §12.1). */
export function dimensionKeyOf(poolId: string, unit: string, window: string): string {
  return `${poolId}:${unit}:${window}`;
}

/**
 * The value at a later time `t` if nothing more is consumed after `now`: in now's bucket prev's weight
 * keeps falling; in the next bucket `curr` has become prev; two buckets on, nothing is left.
 */
function valueLater(prev: number, curr: number, nowBucket: number, windowMs: number, t: number): number {
  const shift = Math.floor(t / windowMs) - nowBucket;
  if (shift <= 0) return slidingValue(prev, curr, t, windowMs);
  if (shift === 1) return slidingValue(curr, 0, t, windowMs);
  return 0;
}

/**
 * With no further consumption, the milliseconds from `now` until the sliding value is strictly below
 * `threshold` (0 when it already is); null when it never will within two windows (threshold ≤ 0).
 * Solves the linear piece in closed form, then nudges by a millisecond so float rounding cannot make
 * the answer one early or late against `slidingValue` itself.
 */
export function msUntilBelow(
  prev: number,
  curr: number,
  now: number,
  windowMs: number,
  threshold: number,
): number | null {
  if (!(threshold > 0)) return null;
  const bucket = Math.floor(now / windowMs);
  if (valueLater(prev, curr, bucket, windowMs, now) < threshold) return 0;
  const start = bucket * windowMs;
  const nextStart = start + windowMs;
  let at: number;
  if (curr < threshold) {
    // Still in this bucket: prev × (1 − (t − start) / W) + curr < threshold; prev > 0 here.
    at = start + windowMs * (1 - (threshold - curr) / prev);
  } else {
    // In the next bucket curr decays alone: curr × (1 − (t − nextStart) / W) < threshold.
    at = nextStart + windowMs * (1 - threshold / curr);
  }
  let t = Math.max(now, Math.floor(at) + 1);
  // Bounded: the closed form is off by at most a millisecond or two, never more.
  for (let i = 0; i < 4 && t > now && valueLater(prev, curr, bucket, windowMs, t - 1) < threshold; i++) t -= 1;
  for (let i = 0; i < 4 && valueLater(prev, curr, bucket, windowMs, t) >= threshold; i++) t += 1;
  if (!Number.isFinite(t)) return null;
  return t - now;
}
