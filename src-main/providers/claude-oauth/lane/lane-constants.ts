const MINUTE = 60_000;
const DAY = 86_400_000;

/** Every number of the low-priority lane (REFERENCE-NOTES §7.3), in one place for tests to pin. */
export const LANE = {
  defaultRetryAfterMs: 20_000,
  minRetryAfterMs: 5_000,
  maxRetryAfterMs: 10 * MINUTE,
  defaultMaxWaitMs: 20 * MINUTE,
  minMaxWaitMs: MINUTE,
  maxMaxWaitMs: 6 * 60 * MINUTE,
  /** ±30 % on each wait, so siblings that hit `slot_busy` together do not retry together. */
  jitter: 0.3,
  /** The lane outlives the announced reset by this much, in case clocks disagree a little. */
  resetGraceMs: MINUTE,
  /** A 5h-reset this many seconds past the accepted reset means a new window began. */
  rolloverToleranceSeconds: 60,
  /** After giving up on max-wait, the offer is refused this long on the connection (LOWP-8). */
  coolOffMs: 10 * MINUTE,
  /** A spent slow-lane budget is remembered until its reset, but never past this (LOWP-11). */
  budgetMemoryCapMs: 8 * DAY,
  /** The executor's wait deadline sits this far before its own upstream-start timeout (LOWP-9). */
  executorWaitMarginMs: 5_000,
} as const;

/** Request header that puts a request into the low-priority lane while it is active (LOWP-4, LOWP-5). */
export const USAGE_LIMIT_HEADER = 'anthropic-usage-limit';
export const USAGE_LIMIT_SLOW = 'slow';

/** Clamps a seconds hint into a millisecond range; an absent hint keeps the fallback. */
export function clampHintMs(seconds: number | undefined, fallbackMs: number, minMs: number, maxMs: number): number {
  if (seconds === undefined) return fallbackMs;
  return Math.min(maxMs, Math.max(minMs, seconds * 1000));
}

/**
 * Absolute instant the lane may wait until for one request: its start plus its own upstream-start
 * timeout, minus the margin (LOWP-9). Undefined when the request has no such timeout.
 */
export function laneWaitDeadline(
  requestStartedAtMs: number,
  fetchStartTimeoutMs: number | undefined,
): number | undefined {
  if (!fetchStartTimeoutMs || fetchStartTimeoutMs <= 0) return undefined;
  return requestStartedAtMs + fetchStartTimeoutMs - LANE.executorWaitMarginMs;
}
