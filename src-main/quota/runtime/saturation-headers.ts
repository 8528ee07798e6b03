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

/** Every reading the headers carry; empty for a provider that reports none (the common case: cheap). */
export function readSaturation(headers: HeaderBag): SaturationReading[] {
  const out: SaturationReading[] = [];
  const u5 = numberOf(headers, 'anthropic-ratelimit-unified-5h-utilization');
  if (u5 !== null) out.push({ window: '5h', fraction: clamp01(u5) });
  const u7 = numberOf(headers, 'anthropic-ratelimit-unified-7d-utilization');
  if (u7 !== null) out.push({ window: '7d', fraction: clamp01(u7) });
  for (const which of ['primary', 'secondary'] as const) {
    const pct = numberOf(headers, CODEX[which].used);
    if (pct !== null) out.push({ window: codexWindow(headers, which), fraction: clamp01(pct / 100) });
  }
  const requests =
    ratio(headers, 'x-ratelimit-limit-requests', 'x-ratelimit-remaining-requests') ??
    ratio(headers, 'anthropic-ratelimit-requests-limit', 'anthropic-ratelimit-requests-remaining');
  if (requests !== null) out.push({ window: 'requests', fraction: requests });
  const tokens =
    ratio(headers, 'x-ratelimit-limit-tokens', 'x-ratelimit-remaining-tokens') ??
    ratio(headers, 'anthropic-ratelimit-tokens-limit', 'anthropic-ratelimit-tokens-remaining');
  if (tokens !== null) out.push({ window: 'tokens', fraction: tokens });
  return out;
}
