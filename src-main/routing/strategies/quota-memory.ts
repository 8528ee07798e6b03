import type { SaturationReading, SaturationWindow } from '../../quota/runtime/saturation-headers';
import { NO_QUOTA, type QuotaFacts } from './facts';

interface WindowSeen {
  fraction: number;
  resetAt: number | null;
  at: number;
}

/** Per connection, the last reported fill and reset of each provider window. */
export type QuotaMemory = ReadonlyMap<SaturationWindow, WindowSeen>;

/** A reading without a known reset is trusted this long (a reset would have told us otherwise). */
export const UNDATED_READING_TTL_MS = 60 * 60_000;

/** Merges one served response's readings and resets into a connection's memory. */
export function observeQuota(
  before: QuotaMemory | undefined,
  readings: readonly SaturationReading[],
  resets: ReadonlyMap<SaturationWindow, number>,
  now: number,
): QuotaMemory {
  const next = new Map(before ?? []);
  for (const r of readings)
    next.set(r.window, { fraction: r.fraction, resetAt: resets.get(r.window) ?? null, at: now });
  // A reset announced without a fill reading still dates the window we know.
  for (const [w, at] of resets) {
    const seen = next.get(w);
    if (seen && seen.at !== now) next.set(w, { ...seen, resetAt: at });
  }
  return next;
}

/**
 * The binding window now: a window past its reset counts as empty; remaining = 1 − the most spent
 * window's fraction, and its reset time (ROUTE-2). No live reading: unknown.
 */
export function quotaFactsOf(memory: QuotaMemory | undefined, now: number): QuotaFacts {
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
