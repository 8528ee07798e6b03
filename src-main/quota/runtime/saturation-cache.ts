import type { QuotaDimension } from '../../../src-shared/domain/quota';
import type { SaturationReading, SaturationWindow } from './saturation-headers';

/** QPIPE-6: a reported utilisation corrects the estimate for this long, then it is stale. */
export const SATURATION_TTL_MS = 30_000;

interface Seen {
  fraction: number;
  at: number;
}

/** The provider window that speaks for a dimension: the long window first, else a rate limit of its unit. */
export function saturationWindowsOf(dim: Pick<QuotaDimension, 'unit' | 'window'>): readonly SaturationWindow[] {
  const long: SaturationWindow | null =
    dim.window === '5h' ? '5h' : dim.window === 'weekly' || dim.window === 'monthly' ? '7d' : null;
  const rate: SaturationWindow | null = dim.unit === 'requests' ? 'requests' : dim.unit === 'tokens' ? 'tokens' : null;
  return [long, rate].filter((w): w is SaturationWindow => w !== null);
}

/**
 * The last reported utilisation per (connection, provider window), in memory. `observe` also says
 * by how much each window grew since the previous report, which the percent dimensions attribute to
 * the key that made the request; the first report of a window has no "before" and attributes nothing.
 */
export function createSaturationCache() {
  const seen = new Map<string, Seen>();
  const keyOf = (connectionId: string, window: SaturationWindow) => `${connectionId}\u0000${window}`;
  return {
    observe(connectionId: string, readings: readonly SaturationReading[], now: number): Map<SaturationWindow, number> {
      const growth = new Map<SaturationWindow, number>();
      for (const r of readings) {
        const key = keyOf(connectionId, r.window);
        const before = seen.get(key);
        // A window that reset reads lower than before: nothing was spent by this request, never negative.
        if (before) growth.set(r.window, Math.max(0, r.fraction - before.fraction));
        seen.set(key, { fraction: r.fraction, at: now });
      }
      return growth;
    },
    /** The fresh (≤ 30 s old) reading, or null. */
    fresh(connectionId: string, window: SaturationWindow, now: number): number | null {
      const s = seen.get(keyOf(connectionId, window));
      return s && now - s.at <= SATURATION_TTL_MS ? s.fraction : null;
    },
    /** The mean fresh reading over a pool's connections for a dimension, or null when none reported. */
    poolFraction(
      connectionIds: readonly string[],
      dim: Pick<QuotaDimension, 'unit' | 'window'>,
      now: number,
    ): number | null {
      for (const window of saturationWindowsOf(dim)) {
        let sum = 0;
        let n = 0;
        for (const id of connectionIds) {
          const f = this.fresh(id, window, now);
          if (f !== null) {
            sum += f;
            n += 1;
          }
        }
        if (n > 0) return sum / n;
      }
      return null;
    },
    clear: () => seen.clear(),
  };
}

export type SaturationCache = ReturnType<typeof createSaturationCache>;
