/**
 * The provider's own account of how full its windows are, read from a served response's headers
 * (QPIPE-6). Formats: Anthropic subscriptions send `anthropic-ratelimit-unified-5h-utilization` and
 * `-7d-utilization` as spent fractions (0.42 = 42 %); Codex sends `x-codex-primary-used-percent`
 * (the 5 h window) and `x-codex-secondary-used-percent` (the weekly one) in percent, with
 * `-window-minutes` naming the window; OpenAI-style APIs send `x-ratelimit-limit-*` and
 * `x-ratelimit-remaining-*` pairs for requests and tokens (a short window, used only as a fallback).
 */

/** Which provider window a reading is about: the long windows, or a request/token rate limit. */
export type SaturationWindow = '5h' | '7d' | 'requests' | 'tokens';

/** One reading: the window and its spent fraction, clamped to 0..1. */
export interface SaturationReading {
  window: SaturationWindow;
  fraction: number;
}

type HeaderBag = Record<string, string | string[] | undefined>;

function first(headers: HeaderBag, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function numberOf(headers: HeaderBag, name: string): number | null {
  const raw = first(headers, name);
  if (raw === undefined || raw.trim() === '') return null;
  const n = Number(raw);
  return Number.isFinite(n) ? n : null;
}

const clamp01 = (n: number) => (n < 0 ? 0 : n > 1 ? 1 : n);

const CODEX = {
  primary: { used: 'x-codex-primary-used-percent', minutes: 'x-codex-primary-window-minutes' },
  secondary: { used: 'x-codex-secondary-used-percent', minutes: 'x-codex-secondary-window-minutes' },
} as const;

/** A Codex window by its announced length: up to a day counts as the 5 h window, longer as the weekly. */
function codexWindow(headers: HeaderBag, which: 'primary' | 'secondary'): SaturationWindow {
  const minutes = numberOf(headers, CODEX[which].minutes);
  if (minutes === null) return which === 'primary' ? '5h' : '7d';
  return minutes <= 24 * 60 ? '5h' : '7d';
}

function ratio(headers: HeaderBag, limitName: string, remainingName: string): number | null {
  const limit = numberOf(headers, limitName);
  const remaining = numberOf(headers, remainingName);
  if (limit === null || remaining === null || limit <= 0) return null;
  return clamp01((limit - remaining) / limit);
}

/** Receives one reading (see `visitSaturation`); `sink` is the caller's own state, passed through. */
export type SaturationVisit<S> = (sink: S, window: SaturationWindow, fraction: number) => void;

/**
 * Hands every reading the headers carry to `visit`, in `readSaturation`'s order, and says how many
 * there were. Allocates nothing of its own: the quota cache stores readings straight from here.
 */
export function visitSaturation<S>(headers: HeaderBag, sink: S, visit: SaturationVisit<S>): number {
  let n = 0;
  const u5 = numberOf(headers, 'anthropic-ratelimit-unified-5h-utilization');
  if (u5 !== null) {
    visit(sink, '5h', clamp01(u5));
    n += 1;
  }
  const u7 = numberOf(headers, 'anthropic-ratelimit-unified-7d-utilization');
  if (u7 !== null) {
    visit(sink, '7d', clamp01(u7));
    n += 1;
  }
  const primary = numberOf(headers, CODEX.primary.used);
  if (primary !== null) {
    visit(sink, codexWindow(headers, 'primary'), clamp01(primary / 100));
    n += 1;
  }
  const secondary = numberOf(headers, CODEX.secondary.used);
  if (secondary !== null) {
    visit(sink, codexWindow(headers, 'secondary'), clamp01(secondary / 100));
    n += 1;
  }
  const requests =
    ratio(headers, 'x-ratelimit-limit-requests', 'x-ratelimit-remaining-requests') ??
    ratio(headers, 'anthropic-ratelimit-requests-limit', 'anthropic-ratelimit-requests-remaining');
  if (requests !== null) {
    visit(sink, 'requests', requests);
    n += 1;
  }
  const tokens =
    ratio(headers, 'x-ratelimit-limit-tokens', 'x-ratelimit-remaining-tokens') ??
    ratio(headers, 'anthropic-ratelimit-tokens-limit', 'anthropic-ratelimit-tokens-remaining');
  if (tokens !== null) {
    visit(sink, 'tokens', tokens);
    n += 1;
  }
  return n;
}

/** Shared by every answer that reports nothing (the common case), so such an answer allocates nothing. */
const NONE: readonly SaturationReading[] = Object.freeze([]);

/** Readings gathered here first, so the array handed out is made once, at its exact size. */
const gathered = { readings: [] as SaturationReading[], count: 0 };
const collect: SaturationVisit<typeof gathered> = (into, window, fraction) => {
  into.readings[into.count] = { window, fraction };
  into.count += 1;
};

/** Every reading the headers carry; empty for a provider that reports none (the common case: cheap). */
export function readSaturation(headers: HeaderBag): readonly SaturationReading[] {
  gathered.count = 0;
  const n = visitSaturation(headers, gathered, collect);
  return n === 0 ? NONE : gathered.readings.slice(0, n);
}
