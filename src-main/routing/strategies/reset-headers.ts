import type { SaturationWindow } from '../../quota/runtime/saturation-headers';

type HeaderBag = Record<string, string | string[] | undefined>;

function first(headers: HeaderBag, name: string): string | null {
  const v = headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  if (s === undefined) return null;
  const trimmed = s.trim();
  return trimmed === '' ? null : trimmed;
}

/** OpenAI's `x-ratelimit-reset-*` durations: `1s`, `6m0s`, `2m59.56s`, `20ms`, `1h2m`. */
export function parseDurationMs(text: string): number | null {
  const re = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;
  let total = 0;
  let matched = '';
  for (const m of text.matchAll(re)) {
    const n = Number(m[1]);
    const unit = m[2];
    total += unit === 'ms' ? n : unit === 's' ? n * 1000 : unit === 'm' ? n * 60_000 : n * 3_600_000;
    matched += m[0];
  }
  return matched === text && matched !== '' ? Math.round(total) : null;
}

function epochSeconds(headers: HeaderBag, name: string): number | null {
  const raw = first(headers, name);
  const n = raw === null ? NaN : Number(raw);
  return Number.isFinite(n) && n > 0 ? n * 1000 : null;
}

function afterSeconds(headers: HeaderBag, name: string, now: number): number | null {
  const raw = first(headers, name);
  const n = raw === null ? NaN : Number(raw);
  return Number.isFinite(n) && n >= 0 ? now + n * 1000 : null;
}

// Anthropic sends one timestamp in several reset headers, response after response: parse it once.
let lastIsoText = '';
let lastIsoValue = NaN;

function isoDate(headers: HeaderBag, name: string): number | null {
  const raw = first(headers, name);
  if (raw === null) return null;
  if (raw !== lastIsoText) {
    lastIsoText = raw;
    lastIsoValue = Date.parse(raw);
  }
  return Number.isFinite(lastIsoValue) ? lastIsoValue : null;
}

function duration(headers: HeaderBag, name: string, now: number): number | null {
  const raw = first(headers, name);
  const ms = raw === null ? null : parseDurationMs(raw);
  return ms === null ? null : now + ms;
}

/**
 * When each provider window resets (ROUTE-2), from the same served responses the saturation reader
 * uses: Claude subscriptions' `anthropic-ratelimit-unified-{5h,7d}-reset` (epoch s), Codex's
 * `x-codex-{primary,secondary}-reset-after-seconds`, Anthropic API keys' RFC 3339
 * `anthropic-ratelimit-{requests,tokens}-reset` and OpenAI's `x-ratelimit-reset-{requests,tokens}`.
 */
export function readResets(headers: HeaderBag, now: number): Map<SaturationWindow, number> {
  const times = readResetsInto(headers, now, emptyResetTimes());
  const out = new Map<SaturationWindow, number>();
  for (const w of RESET_WINDOWS) {
    const at = times[w];
    if (at !== null) out.set(w, at);
  }
  return out;
}

/** Each window's reset time (ms epoch), null when no header said; filled in place, see `readResetsInto`. */
export type ResetTimes = Record<SaturationWindow, number | null>;

/** The windows in the order `readResets` lists them. */
export const RESET_WINDOWS: readonly SaturationWindow[] = ['5h', '7d', 'requests', 'tokens'];

export const emptyResetTimes = (): ResetTimes => ({ '5h': null, '7d': null, requests: null, tokens: null });

/**
 * `readResets` into a caller-owned record (the strategy store reuses one per served response, so
 * the hot path allocates nothing); the first header that names a window wins. Returns `out`.
 */
export function readResetsInto(headers: HeaderBag, now: number, out: ResetTimes): ResetTimes {
  out['5h'] =
    epochSeconds(headers, 'anthropic-ratelimit-unified-5h-reset') ??
    afterSeconds(headers, 'x-codex-primary-reset-after-seconds', now);
  out['7d'] =
    epochSeconds(headers, 'anthropic-ratelimit-unified-7d-reset') ??
    afterSeconds(headers, 'x-codex-secondary-reset-after-seconds', now);
  out.requests =
    isoDate(headers, 'anthropic-ratelimit-requests-reset') ?? duration(headers, 'x-ratelimit-reset-requests', now);
  out.tokens =
    isoDate(headers, 'anthropic-ratelimit-tokens-reset') ?? duration(headers, 'x-ratelimit-reset-tokens', now);
  return out;
}
