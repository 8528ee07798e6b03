import type { RetryAfterSignal } from '../../kernel/upstream-signals';
import { clampHint, msUntilDate, parseResetValue } from '../../resilience/classify/durations';
import type { ResponseHeaders } from '../provider-hooks';

/** Lower-cased names to their first value, trimmed, blanks dropped: an error's headers, read once. */
type HeaderMap = ReadonlyMap<string, string>;

const HTTP_DATE = /^(mon|tue|wed|thu|fri|sat|sun)[a-z]*,?\s/i;
const RESET_HEADER = /^(x-ratelimit-reset(-.+)?|anthropic-ratelimit-.+-reset|ratelimit-reset)$/;

/** Every header the classifier reads is single-valued and HTTP dates hold commas: a repeat keeps its first value. */
export function toHeaderMap(headers: ResponseHeaders): HeaderMap {
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) {
    const first = (Array.isArray(value) ? value[0] : value)?.trim();
    const key = name.toLowerCase();
    if (first && !out.has(key)) out.set(key, first);
  }
  return out;
}

/**
 * `Retry-After` as milliseconds from `now`: delta seconds or an HTTP date (a past date is 0).
 * Absent, negative or unreadable is null; anything beyond a month is clamped to a month.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^\d+(\.\d+)?$/.test(text)) return clampHint(Number(text) * 1_000);
  if (!HTTP_DATE.test(text)) return null;
  const ms = msUntilDate(text, now);
  return ms === null ? null : clampHint(ms);
}

/** Whether the companion header of a reset header says this limit is the one that ran out. */
function exhaustion(headers: HeaderMap, resetName: string): 'exhausted' | 'has_room' | 'unpaired' {
  const remaining = headers.get(resetName.replace('reset', 'remaining'));
  const status = headers.get(resetName.replace('reset', 'status'));
  if (remaining === undefined && status === undefined) return 'unpaired';
  if (status?.toLowerCase() === 'rejected') return 'exhausted';
  if (remaining !== undefined && Number(remaining) <= 0) return 'exhausted';
  return 'has_room';
}

/**
 * The waits named by `x-ratelimit-reset*`, `anthropic-ratelimit-*-reset` or `ratelimit-reset`:
 * the longest exhausted one (remaining 0 or status rejected: it still blocks after shorter ones
 * reopen), and the longest lone one when no limit is paired at all (only a 429/503 makes that a wait).
 */
function resetWaits(headers: HeaderMap, now: number): { exhausted: number | null; lone: number | null } {
  let exhausted: number | null = null;
  let lone: number | null = null;
  let anyPaired = false;
  for (const [name, value] of headers) {
    if (!RESET_HEADER.test(name)) continue;
    const ms = parseResetValue(value, now);
    const state = exhaustion(headers, name);
    if (state !== 'unpaired') anyPaired = true;
    if (ms === null || ms <= 0) continue;
    if (state === 'exhausted') exhausted = Math.max(exhausted ?? 0, ms);
    if (state === 'unpaired') lone = Math.max(lone ?? 0, ms);
  }
  return {
    exhausted: exhausted === null ? null : clampHint(exhausted),
    lone: anyPaired || lone === null ? null : clampHint(lone),
  };
}

/** What an error response's headers say about when to come back. */
export interface RetryHeaderSignals {
  retryAfter: RetryAfterSignal | null;
  retryAfterHeaderMs: number | null;
  loneResetMs: number | null;
}

/** `Retry-After` first, then `retry-after-ms`, then an exhausted limit's reset (COOL-4). */
export function readRetryHeaders(headers: HeaderMap, now: number): RetryHeaderSignals {
  const retryAfterHeaderMs = parseRetryAfter(headers.get('retry-after'), now);
  const resets = resetWaits(headers, now);
  const out = { retryAfter: null, retryAfterHeaderMs, loneResetMs: resets.lone };
  if (retryAfterHeaderMs !== null && retryAfterHeaderMs > 0)
    return { ...out, retryAfter: { ms: retryAfterHeaderMs, source: 'retry-after' } };
  const rawMs = headers.get('retry-after-ms');
  const ms = rawMs !== undefined && /^\d+(\.\d+)?$/.test(rawMs) ? clampHint(Number(rawMs)) : null;
  if (ms !== null && ms > 0) return { ...out, retryAfter: { ms, source: 'retry-after-ms' } };
  if (resets.exhausted !== null && resets.exhausted > 0)
    return { ...out, retryAfter: { ms: resets.exhausted, source: 'reset-header' } };
  return out;
}
