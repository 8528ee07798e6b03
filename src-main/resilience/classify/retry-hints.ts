import type { RetryHint } from './classification';
import { clampHint, msUntilDate, parseResetValue } from './durations';
import { headerValue, type HeaderMap } from './headers';
import { googleRetryDelayMs } from './google-retry-delay';
import { parseRetryFromText } from './reset-text';

/** Statuses whose error may announce a retry window to the client (RESTATE-5). */
export const RETRY_AFTER_ELIGIBLE_STATUSES: ReadonlySet<number> = new Set([429, 503]);

const HTTP_DATE = /^(mon|tue|wed|thu|fri|sat|sun)[a-z]*,?\s/i;
const RESET_HEADER = /^(x-ratelimit-reset(-.+)?|anthropic-ratelimit-.+-reset|ratelimit-reset)$/;

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
  const remaining = headerValue(headers, resetName.replace('reset', 'remaining'));
  const status = headerValue(headers, resetName.replace('reset', 'status'));
  if (remaining === undefined && status === undefined) return 'unpaired';
  if (status?.toLowerCase() === 'rejected') return 'exhausted';
  if (remaining !== undefined && Number(remaining) <= 0) return 'exhausted';
  return 'has_room';
}

/**
 * The wait named by `x-ratelimit-reset*`, `anthropic-ratelimit-*-reset` or `ratelimit-reset`.
 * Only limits that ran out count (remaining 0 or status rejected); lone resets count on 429/503.
 */
export function parseRateLimitResetHeaders(headers: HeaderMap, status: number, now: number): number | null {
  const exhausted: number[] = [];
  const unpaired: number[] = [];
  let anyPaired = false;
  for (const [name, value] of headers) {
    if (!RESET_HEADER.test(name)) continue;
    const ms = parseResetValue(value, now);
    const state = exhaustion(headers, name);
    if (state !== 'unpaired') anyPaired = true;
    if (ms === null || ms <= 0) continue;
    if (state === 'exhausted') exhausted.push(ms);
    if (state === 'unpaired') unpaired.push(ms);
  }
  // The longest exhausted window is the one that still blocks after the shorter ones reopen.
  if (exhausted.length > 0) return clampHint(Math.max(...exhausted));
  if (!anyPaired && unpaired.length > 0 && RETRY_AFTER_ELIGIBLE_STATUSES.has(status)) {
    return clampHint(Math.max(...unpaired));
  }
  return null;
}

/** The upstream's own reset from headers: `Retry-After` (and `retry-after-ms`) first, then reset headers. */
export function headerRetryHintMs(headers: HeaderMap, status: number, now: number): number | null {
  const retryAfter = parseRetryAfter(headerValue(headers, 'retry-after'), now);
  if (retryAfter !== null && retryAfter > 0) return retryAfter;
  const retryAfterMs = headerValue(headers, 'retry-after-ms');
  if (retryAfterMs !== undefined && /^\d+(\.\d+)?$/.test(retryAfterMs)) {
    const ms = clampHint(Number(retryAfterMs));
    if (ms !== null && ms > 0) return ms;
  }
  return parseRateLimitResetHeaders(headers, status, now);
}

/** COOL-4: the upstream's reset, from headers or else from the error text; zero waits are no hint. */
export function findRetryHint(headers: HeaderMap, status: number, text: string, now: number): RetryHint | null {
  const fromHeader = headerRetryHintMs(headers, status, now);
  if (fromHeader !== null && fromHeader > 0) return { ms: fromHeader, source: 'header' };
  const fromGoogle = googleRetryDelayMs(text);
  if (fromGoogle !== null) return { ms: clampHint(fromGoogle) ?? fromGoogle, source: 'body' };
  const fromBody = parseRetryFromText(text, now);
  if (fromBody !== null && fromBody > 0) return { ms: fromBody, source: 'body' };
  return null;
}
