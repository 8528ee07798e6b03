import type { QuotaDimension } from '../../../src-shared/domain/quota';
import { visitSaturation, type SaturationReading, type SaturationWindow } from './saturation-headers';

/** QPIPE-6: a reported utilisation corrects the estimate for this long, then it is stale. */
export const SATURATION_TTL_MS = 30_000;

interface Seen {
  fraction: number;
  at: number;
}

type RateWindow = Extract<SaturationWindow, 'requests' | 'tokens'>;
const LONG_WINDOW: Readonly<Record<QuotaDimension['window'], SaturationWindow | null>> = {
  '5h': '5h',
  hourly: null,
  daily: null,
  weekly: '7d',
  monthly: '7d',
};

/** The list for a (long window, rate window) pair, made once: the request path asks per dimension. */
const LISTS = new Map<SaturationWindow | null, Map<RateWindow | null, readonly SaturationWindow[]>>();
function listOf(long: SaturationWindow | null, rate: RateWindow | null): readonly SaturationWindow[] {
  let byRate = LISTS.get(long);
  if (!byRate) {
    byRate = new Map();
    LISTS.set(long, byRate);
  }
  let list = byRate.get(rate);
  if (!list) {
    list = Object.freeze([long, rate].filter((w): w is SaturationWindow => w !== null));
    byRate.set(rate, list);
  }
  return list;
}

/** The provider window that speaks for a dimension: the long window first, else a rate limit of its unit. */
export function saturationWindowsOf(dim: Pick<QuotaDimension, 'unit' | 'window'>): readonly SaturationWindow[] {
  const rate: RateWindow | null = dim.unit === 'requests' ? 'requests' : dim.unit === 'tokens' ? 'tokens' : null;
  return listOf(LONG_WINDOW[dim.window] ?? null, rate);
}

interface Cursor {
  seen: Map<string, Map<SaturationWindow, Seen>>;
  connectionId: string;
  /** The connection's windows, looked up on its first reading only. */
  byWindow: Map<SaturationWindow, Seen> | null;
  now: number;
  growth: Map<SaturationWindow, number> | null;
}

/** Stores one reading at the cursor; a growth is only known from the second report of a window on. */
function keepReading(c: Cursor, window: SaturationWindow, fraction: number): void {
  let byWindow = c.byWindow ?? c.seen.get(c.connectionId);
  if (!byWindow) {
    byWindow = new Map();
    c.seen.set(c.connectionId, byWindow);
  }
  c.byWindow = byWindow;
  const before = byWindow.get(window);
  if (before === undefined) {
    byWindow.set(window, { fraction, at: c.now });
    return;
  }
  // A window that reset reads lower than before: nothing was spent by this request, never negative.
  c.growth?.set(window, Math.max(0, fraction - before.fraction));
  before.fraction = fraction;
  before.at = c.now;
}

/**
 * The last reported utilisation per (connection, provider window), in memory. `observe` also says
 * by how much each window grew since the previous report, which the percent dimensions attribute to
 * the key that made the request; the first report of a window has no "before" and attributes nothing.
 */
export function createSaturationCache() {
  // By connection, then window: a lookup builds no string (the pre-check asks for every connection).
  const seen = new Map<string, Map<SaturationWindow, Seen>>();
  const fresh = (connectionId: string, window: SaturationWindow, now: number): number | null => {
    const s = seen.get(connectionId)?.get(window);
    return s && now - s.at <= SATURATION_TTL_MS ? s.fraction : null;
  };
  // One reused cursor for `visitSaturation`, so storing a response's readings allocates nothing.
  const cursor: Cursor = { seen, connectionId: '', byWindow: null, now: 0, growth: null };
  const keep = (connectionId: string, now: number, growth: Map<SaturationWindow, number> | null): Cursor => {
    cursor.connectionId = connectionId;
    cursor.byWindow = null;
    cursor.now = now;
    cursor.growth = growth;
    return cursor;
  };
  const done = (): void => {
    cursor.byWindow = null;
    cursor.growth = null;
  };
  return {
    /** Stores the readings and says how much each window grew since its previous report. */
    observe(connectionId: string, readings: readonly SaturationReading[], now: number): Map<SaturationWindow, number> {
      const growth = new Map<SaturationWindow, number>();
      const c = keep(connectionId, now, growth);
      for (const r of readings) keepReading(c, r.window, r.fraction);
      done();
      return growth;
    },
    /**
     * `observe` straight from a response's headers (no readings array): adds each window's growth to
     * `growth` when given (a pool with a percent dimension needs it; others pass null).
     */
    observeHeaders(
      connectionId: string,
      headers: Record<string, string | string[] | undefined>,
      now: number,
      growth: Map<SaturationWindow, number> | null,
    ): void {
      visitSaturation(headers, keep(connectionId, now, growth), keepReading);
      done();
    },
    /** The fresh (≤ 30 s old) reading, or null. */
    fresh,
    /** The mean fresh reading over a pool's connections for a dimension, or null when none reported. */
    poolFraction(
      connectionIds: readonly string[],
      dim: Pick<QuotaDimension, 'unit' | 'window'>,
      now: number,
    ): number | null {
      // No provider has reported anything yet (a pool of API keys that send no such headers).
      if (seen.size === 0) return null;
      const windows = saturationWindowsOf(dim);
      for (let w = 0; w < windows.length; w++) {
        const window = windows[w];
        if (window === undefined) continue;
        let sum = 0;
        let n = 0;
        for (let c = 0; c < connectionIds.length; c++) {
          const id = connectionIds[c];
          const f = id === undefined ? null : fresh(id, window, now);
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
