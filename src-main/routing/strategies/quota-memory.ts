import type { SignalWindow, WindowSignal } from '../../kernel/upstream-signals';
import { NO_QUOTA, type QuotaFacts } from './facts';

interface WindowSeen {
  fraction: number;
  resetAt: number | null;
  at: number;
}

/** Per connection, the last reported fill and reset of each provider window (the strategy store owns it). */
export type QuotaMemory = Map<SignalWindow, WindowSeen>;

/** A reading without a known reset is trusted this long (a reset would have told us otherwise). */
export const UNDATED_READING_TTL_MS = 60 * 60_000;

/**
 * Merges one served response's windows (as its adapter read them) into a connection's memory, in
 * place: nothing else holds its entries (quota facts copy the numbers out), so a response allocates nothing.
 */
export function observeQuota(memory: QuotaMemory, windows: readonly WindowSignal[], now: number): void {
  for (const w of windows) {
    if (w.used === null) continue;
    const seen = memory.get(w.name);
    if (!seen) memory.set(w.name, { fraction: w.used, resetAt: w.resetAt, at: now });
    else {
      seen.fraction = w.used;
      seen.resetAt = w.resetAt;
      seen.at = now;
    }
  }
  // A reset announced without a fill reading still dates the window we know.
  for (const w of windows) {
    const seen = w.used === null ? memory.get(w.name) : undefined;
    if (seen && seen.at !== now) seen.resetAt = w.resetAt;
  }
}

/**
 * The binding window now: a window past its reset counts as empty; remaining = 1 − the most spent
 * window's fraction, and its reset time (ROUTE-2). No live reading: unknown.
 */
export function quotaFactsOf(memory: ReadonlyMap<SignalWindow, WindowSeen> | undefined, now: number): QuotaFacts {
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
