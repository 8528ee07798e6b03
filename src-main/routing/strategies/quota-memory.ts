import type { SaturationReading, SaturationWindow } from '../../quota/runtime/saturation-headers';
import { NO_QUOTA, type QuotaFacts } from './facts';
import { RESET_WINDOWS, type ResetTimes } from './reset-headers';

interface WindowSeen {
  fraction: number;
  resetAt: number | null;
  at: number;
}

/** Per connection, the last reported fill and reset of each provider window (the strategy store owns it). */
export type QuotaMemory = Map<SaturationWindow, WindowSeen>;

/** A reading without a known reset is trusted this long (a reset would have told us otherwise). */
export const UNDATED_READING_TTL_MS = 60 * 60_000;

/**
 * Merges one served response's readings and resets into a connection's memory, in place: nothing
 * else holds its entries (quota facts copy the numbers out), and a response a second allocates nothing.
 */
export function observeQuota(
  memory: QuotaMemory,
  readings: readonly SaturationReading[],
  resets: Readonly<ResetTimes>,
  now: number,
): void {
  for (const r of readings) {
    const resetAt = resets[r.window];
    const seen = memory.get(r.window);
    if (!seen) memory.set(r.window, { fraction: r.fraction, resetAt, at: now });
    else {
      seen.fraction = r.fraction;
      seen.resetAt = resetAt;
      seen.at = now;
    }
  }
  // A reset announced without a fill reading still dates the window we know.
  for (const w of RESET_WINDOWS) {
    const at = resets[w];
    const seen = at === null ? undefined : memory.get(w);
    if (seen && seen.at !== now) seen.resetAt = at;
  }
}

/** Whether a response said anything `observeQuota` would keep. */
export function saysQuota(readings: readonly SaturationReading[], resets: Readonly<ResetTimes>): boolean {
  return (
    readings.length > 0 ||
    resets['5h'] !== null ||
    resets['7d'] !== null ||
    resets.requests !== null ||
    resets.tokens !== null
  );
}

/**
 * The binding window now: a window past its reset counts as empty; remaining = 1 − the most spent
 * window's fraction, and its reset time (ROUTE-2). No live reading: unknown.
 */
export function quotaFactsOf(memory: ReadonlyMap<SaturationWindow, WindowSeen> | undefined, now: number): QuotaFacts {
  if (!memory) return NO_QUOTA;
  let binding: WindowSeen | null = null;
  for (const seen of memory.values()) {
    if (seen.resetAt !== null && seen.resetAt <= now) continue;
    if (seen.resetAt === null && now - seen.at > UNDATED_READING_TTL_MS) continue;
    if (!binding || seen.fraction > binding.fraction) binding = seen;
  }
  if (!binding) return NO_QUOTA;
  return { remaining: Math.max(0, 1 - binding.fraction), resetAt: binding.resetAt };
}
