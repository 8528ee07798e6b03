import type { SaturationWindow } from '../../quota/runtime/saturation-headers';

type HeaderBag = Record<string, string | string[] | undefined>;

function first(headers: HeaderBag, name: string): string | null {
  const v = headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s.trim() === '' ? null : s.trim();
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

function isoDate(headers: HeaderBag, name: string): number | null {
  const raw = first(headers, name);
  const t = raw === null ? NaN : Date.parse(raw);
  return Number.isFinite(t) ? t : null;
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
  const out = new Map<SaturationWindow, number>();
  const put = (w: SaturationWindow, at: number | null) => {
    if (at !== null && !out.has(w)) out.set(w, at);
  };
  put('5h', epochSeconds(headers, 'anthropic-ratelimit-unified-5h-reset'));
  put('7d', epochSeconds(headers, 'anthropic-ratelimit-unified-7d-reset'));
  put('5h', afterSeconds(headers, 'x-codex-primary-reset-after-seconds', now));
  put('7d', afterSeconds(headers, 'x-codex-secondary-reset-after-seconds', now));
  put('requests', isoDate(headers, 'anthropic-ratelimit-requests-reset'));
  put('tokens', isoDate(headers, 'anthropic-ratelimit-tokens-reset'));
  put('requests', duration(headers, 'x-ratelimit-reset-requests', now));
  put('tokens', duration(headers, 'x-ratelimit-reset-tokens', now));
  return out;
}
