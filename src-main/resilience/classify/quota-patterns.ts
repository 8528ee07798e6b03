import { includesAny, matchesAny } from './signals';

/** Quota exhaustion that a short backoff will not fix (reference §2.5, terminal-quota patterns). */
const TERMINAL_QUOTA_PATTERNS: readonly RegExp[] = [
  /insufficient[_ ]g1[_ ]credits[_ ]balance/,
  /credits?.{0,40}exhaust/,
  /out of credits/,
  /billing.{0,40}cap/,
  /insufficient.{0,40}quota/,
  /individual quota reached/,
  /enable overages/,
  /daily free allocation/,
];

/** Broader long-window quota wording (daily/monthly limits, hard and plan limits). */
const LONG_WINDOW_QUOTA_PATTERNS: readonly RegExp[] = [
  ...TERMINAL_QUOTA_PATTERNS,
  /(daily|monthly|per[- ]day|per[- ]month)\s*(limit|quota)/,
  /quota.{0,40}exceed/,
  /exceed.{0,40}quota/,
  /hard limit/,
  /plan limit/,
  /resource has been exhausted.{0,80}reset after/,
  /have exhausted their quota/,
  /"error"\s*:\s*"usage limit reached"/,
];

/** A 429 that names a short retry delay (< 1 h) is a rate limit whatever else it says. */
const SHORT_RETRY_DELAY = /"retrydelay"\s*:\s*"(\d+(?:\.\d+)?)s"|please retry in (\d+(?:\.\d+)?)\s*s/;

/** Quota words in any status (reference classifyErrorText). */
const QUOTA_WORDS: readonly string[] = [
  'quota exceeded',
  'quota depleted',
  'quota will reset',
  'quota has been exceeded',
  'hour quota',
  'quota exhausted',
  'exhausted your capacity',
  'billing',
];

const CAPACITY_WORDS: readonly string[] = ['overloaded', 'capacity', 'high demand'];
const RATE_LIMIT_WORDS: readonly string[] = ['rate limit', 'rate_limit', 'ratelimit', 'too many requests'];

/** Whether a 429's text reads as a long-window quota, which keeps quota signals alive for API keys. */
export function looksLikeLongWindowQuota(text: string): boolean {
  return matchesAny(text, LONG_WINDOW_QUOTA_PATTERNS);
}

/** Reference §2.5 (`classify429`): a 429 is a quota exhaustion or a plain rate limit. */
export function classify429(text: string): 'quota_exhausted' | 'rate_limit_exceeded' {
  if (matchesAny(text, TERMINAL_QUOTA_PATTERNS)) return 'quota_exhausted';
  const delay = SHORT_RETRY_DELAY.exec(text);
  const seconds = delay ? Number(delay[1] ?? delay[2]) : NaN;
  if (Number.isFinite(seconds) && seconds < 3_600) return 'rate_limit_exceeded';
  return looksLikeLongWindowQuota(text) ? 'quota_exhausted' : 'rate_limit_exceeded';
}

export function isQuotaText(text: string): boolean {
  return includesAny(text, QUOTA_WORDS) || looksLikeLongWindowQuota(text);
}

export function isCapacityText(text: string): boolean {
  return includesAny(text, CAPACITY_WORDS);
}

export function isRateLimitText(text: string): boolean {
  return includesAny(text, RATE_LIMIT_WORDS);
}
