import { describe, expect, it } from 'vitest';
import { NOW } from '../../resilience/classify/classify.testkit';
import { MAX_RETRY_HINT_MS } from '../../resilience/classify/durations';
import { findRetryHint } from '../../resilience/classify/retry-hints';
import type { ResponseHeaders } from '../provider-hooks';
import { readHeaderSignals } from './read-signals';
import { parseRetryAfter } from './retry-headers';

// Issue 22 step 3: the adapter reads the headers once; the classifier picks its hint from the signals.
const h = (headers: Record<string, string | string[]>): ResponseHeaders => headers;
const hintOf = (headers: ResponseHeaders, status: number, text = '') =>
  findRetryHint(readHeaderSignals(status, headers, NOW), status, text, NOW);
/** The header-only wait, as the classifier sees it for `status`. */
const headerRetryHintMs = (headers: ResponseHeaders, status: number, _now: number) =>
  hintOf(headers, status)?.ms ?? null;
const parseRateLimitResetHeaders = headerRetryHintMs;
const at = (offsetMs: number) => new Date(NOW + offsetMs);

describe('Retry-After parsing', () => {
  it('COOL-4: reads delta seconds as milliseconds', () => {
    expect(parseRetryAfter('120', NOW)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0);
    expect(parseRetryAfter('1.5', NOW)).toBe(1_500);
  });

  it('COOL-4: reads an HTTP date relative to now, and a past date as zero', () => {
    expect(parseRetryAfter(at(90_000).toUTCString(), NOW)).toBe(90_000);
    expect(parseRetryAfter(at(-60_000).toUTCString(), NOW)).toBe(0);
  });

  it('COOL-4: absent or blank is no hint', () => {
    expect(parseRetryAfter(undefined, NOW)).toBeNull();
    expect(parseRetryAfter('', NOW)).toBeNull();
    expect(parseRetryAfter('   ', NOW)).toBeNull();
  });

  it('COOL-4: garbage is no hint, even when Date.parse would accept it', () => {
    for (const value of ['soon', '12abc', '1 2', 'Mon, garbage', 'NaN', 'Infinity', '0x10', '1e3', '2025-06-01']) {
      expect(parseRetryAfter(value, NOW), value).toBeNull();
    }
    // Date.parse reads "2025" as a year; Retry-After means seconds.
    expect(parseRetryAfter('2025', NOW)).toBe(2_025_000);
  });

  it('COOL-4: negative seconds are no hint', () => {
    expect(parseRetryAfter('-5', NOW)).toBeNull();
  });

  it('COOL-4: a huge value is clamped to 30 days; a non-finite one is no hint', () => {
    expect(parseRetryAfter('999999999999', NOW)).toBe(MAX_RETRY_HINT_MS);
    expect(parseRetryAfter('9'.repeat(400), NOW)).toBeNull();
  });
});

describe('rate-limit reset headers', () => {
  it('COOL-4: x-ratelimit-reset as epoch seconds on a 503 (reference §3.8 #8)', () => {
    const headers = h({ 'x-ratelimit-reset': String(Math.floor((NOW + 90_000) / 1000)) });
    expect(parseRateLimitResetHeaders(headers, 503, NOW)).toBe(90_000);
  });

  it('COOL-4: x-ratelimit-reset as epoch milliseconds and as delta seconds on a 429', () => {
    expect(parseRateLimitResetHeaders(h({ 'x-ratelimit-reset': String(NOW + 45_000) }), 429, NOW)).toBe(45_000);
    expect(parseRateLimitResetHeaders(h({ 'x-ratelimit-reset': '30' }), 429, NOW)).toBe(30_000);
  });

  it('COOL-4: OpenAI compact durations count only for the limit that ran out', () => {
    const headers = h({
      'x-ratelimit-remaining-requests': '59',
      'x-ratelimit-reset-requests': '1s',
      'x-ratelimit-remaining-tokens': '0',
      'x-ratelimit-reset-tokens': '6m0s',
    });
    expect(parseRateLimitResetHeaders(headers, 429, NOW)).toBe(360_000);
  });

  it('COOL-4: of several exhausted limits the longest wins', () => {
    const headers = h({
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': '2m59.56s',
      'x-ratelimit-remaining-tokens': '0',
      'x-ratelimit-reset-tokens': '20ms',
    });
    expect(parseRateLimitResetHeaders(headers, 429, NOW)).toBe(179_560);
  });

  it('COOL-4: resets of limits that still have room, or lone resets on other statuses, are no hint', () => {
    const roomy = h({ 'x-ratelimit-remaining-tokens': '5000', 'x-ratelimit-reset-tokens': '6m0s' });
    expect(parseRateLimitResetHeaders(roomy, 429, NOW)).toBeNull();
    expect(parseRateLimitResetHeaders(h({ 'x-ratelimit-reset': '30' }), 500, NOW)).toBeNull();
  });

  it('COOL-4: anthropic-ratelimit-*-reset RFC 3339 timestamps, UTC and with an offset', () => {
    const utc = h({
      'anthropic-ratelimit-tokens-remaining': '0',
      'anthropic-ratelimit-tokens-reset': at(42_000).toISOString(),
      'anthropic-ratelimit-requests-remaining': '10',
      'anthropic-ratelimit-requests-reset': at(5_000).toISOString(),
    });
    expect(parseRateLimitResetHeaders(utc, 429, NOW)).toBe(42_000);
    const offset = h({
      'anthropic-ratelimit-input-tokens-remaining': '0',
      'anthropic-ratelimit-input-tokens-reset': '2025-06-01T14:30:00+02:00',
    });
    expect(parseRateLimitResetHeaders(offset, 429, NOW)).toBe(30 * 60_000);
  });

  it('COOL-4: the unified Claude reset counts when its status says rejected', () => {
    const reset = String(Math.floor((NOW + 3_600_000) / 1000));
    const rejected = h({
      'anthropic-ratelimit-unified-status': 'rejected',
      'anthropic-ratelimit-unified-reset': reset,
    });
    expect(parseRateLimitResetHeaders(rejected, 429, NOW)).toBe(3_600_000);
    const allowed = h({ 'anthropic-ratelimit-unified-status': 'allowed', 'anthropic-ratelimit-unified-reset': reset });
    expect(parseRateLimitResetHeaders(allowed, 429, NOW)).toBeNull();
  });

  it('COOL-4: past or unreadable resets are no hint', () => {
    const headers = h({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': at(-5_000).toISOString() });
    expect(parseRateLimitResetHeaders(headers, 429, NOW)).toBeNull();
    expect(parseRateLimitResetHeaders(h({ 'x-ratelimit-reset': 'later' }), 429, NOW)).toBeNull();
  });
});

describe('retry hint precedence', () => {
  it('COOL-4: Retry-After wins over reset headers, retry-after-ms is read too, header names ignore case', () => {
    const both = h({ 'Retry-After': '7', 'X-RateLimit-Reset': '30' });
    expect(headerRetryHintMs(both, 429, NOW)).toBe(7_000);
    expect(headerRetryHintMs(h({ 'retry-after-ms': '1500' }), 429, NOW)).toBe(1_500);
    expect(headerRetryHintMs(h({ 'retry-after': ['3', '9'] }), 429, NOW)).toBe(3_000);
  });

  it('COOL-4: a header hint is marked header, a text hint body, and a zero wait is none', () => {
    expect(hintOf(h({ 'retry-after': '5' }), 429, 'try again in 20s')).toEqual({
      ms: 5_000,
      source: 'header',
    });
    expect(hintOf(h({}), 429, 'please try again in 20s.')).toEqual({ ms: 20_000, source: 'body' });
    expect(hintOf(h({ 'retry-after': '0' }), 429, 'slow down')).toBeNull();
  });
});
