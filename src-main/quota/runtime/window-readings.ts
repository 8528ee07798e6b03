import type { QuotaDimension } from '../../../src-shared/domain/quota';
import type { SignalWindow, WindowSignal } from '../../kernel/upstream-signals';

/*
 * Issue 22 step 3, "one memory per fact": the provider's own account of its windows, kept once per
 * (connection, window). Two readers trust it differently: the quota engine corrects its counters
 * with a report for 30 s (QPIPE-6), the combo strategies rank by it until its window resets
 * (ROUTE-2). Written by the quota runtime's `record`, which the learner calls for every served answer.
 */

/** QPIPE-6: a reported utilisation corrects the estimate for this long, then it is stale. */
export const SATURATION_TTL_MS = 30_000;

/** ROUTE-2: a reading without a known reset is trusted this long (a reset would have told us otherwise). */
export const UNDATED_READING_TTL_MS = 60 * 60_000;

interface Seen {
  fraction: number;
  /** When the window resets (ms epoch); null when the provider did not say. */
  resetAt: number | null;
  /** When the fill was reported. */
  at: number;
}

/** The window that binds a connection now (the most spent), for the strategies' ranking. */
export interface BindingWindow {
  /** Unspent fraction, 0..1. */
  remaining: number;
  resetAt: number | null;
}

type RateWindow = Extract<SignalWindow, 'requests' | 'tokens'>;
const LONG_WINDOW: Readonly<Record<QuotaDimension['window'], SignalWindow | null>> = {
  '5h': '5h',
  hourly: null,
  daily: null,
  weekly: '7d',
  monthly: '7d',
};

/** The list for a (long window, rate window) pair, made once: the request path asks per dimension. */
const LISTS = new Map<SignalWindow | null, Map<RateWindow | null, readonly SignalWindow[]>>();
function listOf(long: SignalWindow | null, rate: RateWindow | null): readonly SignalWindow[] {
  let byRate = LISTS.get(long);
  if (!byRate) {
    byRate = new Map();
    LISTS.set(long, byRate);
  }
  let list = byRate.get(rate);
  if (!list) {
    list = Object.freeze([long, rate].filter((w): w is SignalWindow => w !== null));
    byRate.set(rate, list);
  }
  return list;
}

/** The provider window that speaks for a dimension: the long window first, else a rate limit of its unit. */
export function saturationWindowsOf(dim: Pick<QuotaDimension, 'unit' | 'window'>): readonly SignalWindow[] {
  const rate: RateWindow | null = dim.unit === 'requests' ? 'requests' : dim.unit === 'tokens' ? 'tokens' : null;
  return listOf(LONG_WINDOW[dim.window] ?? null, rate);
}

interface Cursor {
  seen: Map<string, Map<SignalWindow, Seen>>;
  connectionId: string;
  /** The connection's windows, looked up on its first reading only. */
  byWindow: Map<SignalWindow, Seen> | null;
  now: number;
  growth: Map<SignalWindow, number> | null;
}

/** Stores one reading at the cursor; a growth is only known from the second report of a window on. */
function keepReading(c: Cursor, window: SignalWindow, fraction: number, resetAt: number | null): void {
  let byWindow = c.byWindow ?? c.seen.get(c.connectionId);
  if (!byWindow) {
    byWindow = new Map();
    c.seen.set(c.connectionId, byWindow);
  }
  c.byWindow = byWindow;
  const before = byWindow.get(window);
  if (before === undefined) {
    byWindow.set(window, { fraction, resetAt, at: c.now });
    return;
  }
  // A window that reset reads lower than before: nothing was spent by this request, never negative.
  c.growth?.set(window, Math.max(0, fraction - before.fraction));
  before.fraction = fraction;
  before.resetAt = resetAt;
  before.at = c.now;
}

/** A reset announced without a fill still dates a window already known (its fill's time stays). */
function dateReading(c: Cursor, window: SignalWindow, resetAt: number | null): void {
  const known = (c.byWindow ?? c.seen.get(c.connectionId))?.get(window);
  if (known && known.at !== c.now) known.resetAt = resetAt;
}

/**
 * The last reported utilisation and reset per (connection, provider window), in memory. `observe`
 * also says by how much each window grew since the previous report, which the percent dimensions
 * attribute to the key that made the request; the first report of a window has no "before" and
 * attributes nothing.
 */
export function createWindowReadings() {
  // By connection, then window: a lookup builds no string (the pre-check asks for every connection).
  const seen = new Map<string, Map<SignalWindow, Seen>>();
  const fresh = (connectionId: string, window: SignalWindow, now: number): number | null => {
    const s = seen.get(connectionId)?.get(window);
    return s && now - s.at <= SATURATION_TTL_MS ? s.fraction : null;
  };
  // One reused cursor, so storing a response's readings allocates nothing.
  const cursor: Cursor = { seen, connectionId: '', byWindow: null, now: 0, growth: null };
  const keep = (connectionId: string, now: number, growth: Map<SignalWindow, number> | null): Cursor => {
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
    /**
     * Stores a response's window fills and resets (as its adapter read them) and adds each window's
     * growth since its previous report to `growth` when given (a pool with a percent dimension needs it).
     */
    observeWindows(
      connectionId: string,
      windows: readonly WindowSignal[],
      now: number,
      growth: Map<SignalWindow, number> | null,
    ): void {
      if (windows.length === 0) return;
      const c = keep(connectionId, now, growth);
      for (const w of windows) if (w.used !== null) keepReading(c, w.name, w.used, w.resetAt);
      for (const w of windows) if (w.used === null) dateReading(c, w.name, w.resetAt);
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
    /**
     * ROUTE-2: the binding window now (the most spent one): a window past its reset counts as
     * empty, an undated reading is trusted for an hour; null when nothing live is known.
     */
    binding(connectionId: string, now: number): BindingWindow | null {
      const byWindow = seen.get(connectionId);
      if (!byWindow) return null;
      let binding: Seen | null = null;
      for (const s of byWindow.values()) {
        if (s.resetAt !== null && s.resetAt <= now) continue;
        if (s.resetAt === null && now - s.at > UNDATED_READING_TTL_MS) continue;
        if (!binding || s.fraction > binding.fraction) binding = s;
      }
      return binding ? { remaining: Math.max(0, 1 - binding.fraction), resetAt: binding.resetAt } : null;
    },
    clear: () => seen.clear(),
  };
}

export type WindowReadings = ReturnType<typeof createWindowReadings>;
