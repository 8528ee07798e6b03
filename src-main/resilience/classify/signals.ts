/**
 * Signal tables (reference §3.5): lower-case substrings searched in the lower-cased error text.
 * Substrings, not regexes, wherever possible: cheap, and safe to extend from settings.
 */

/** COOL-8a (seed: BAN_DETECTION): the account itself is gone; terminal `banned`. */
export const ACCOUNT_DEACTIVATED_SIGNALS: readonly string[] = [
  'account_deactivated',
  'account has been deactivated',
  'account has been disabled',
  'your account has been suspended',
  'this account is deactivated',
  'verify your account to continue',
  'this service has been disabled in this account for violation',
  'this service has been disabled in this account',
  // Anthropic's wording for a disabled organisation; a Claude 403 like this bans at once (§4.6).
  'organization has been disabled',
];

/**
 * Billing credits are gone; terminal `credits_exhausted`. Generic "has been exhausted" and
 * "resource exhausted" are deliberately absent: Gemini uses them for transient RPM/TPM limits.
 */
export const CREDITS_EXHAUSTED_SIGNALS: readonly string[] = [
  'insufficient_quota',
  'billing_hard_limit_reached',
  'exceeded your current quota',
  'exceeded your current usage quota',
  'credit_balance_too_low',
  'your credit balance is too low',
  'credits exhausted',
  'out of credits',
  'payment required',
  'free tier of the model has been exhausted',
  'tier has been exhausted',
  'insufficient balance',
  'insufficient_balance',
  'insufficient account balance',
  'insufficient credit balance',
  'insufficient credits',
  'insufficient credit',
];

/** A 401 that a token refresh heals (Google-style OAuth wording); never terminal. */
export const OAUTH_INVALID_TOKEN_SIGNALS: readonly string[] = [
  'invalid authentication credentials',
  'oauth 2',
  'login cookie',
  'valid authentication credential',
  'invalid credentials',
];

/** The credential's lifetime ended: reason `token_expired`, terminal `expired` after COOL-9's retries. */
export const EXPIRED_TOKEN_SIGNALS: readonly string[] = [
  'token has expired',
  'token expired',
  'token is expired',
  'expired token',
  'jwt expired',
  'token has been revoked',
  'invalid_grant',
  'session has expired',
  'session expired',
];

/** COOL-8b: an upstream refusal of this one request (Anthropic OAuth 403 "Request not allowed"). */
export const REQUEST_REJECTED_SIGNALS: readonly string[] = ['request not allowed'];

/** A key that may not call this route but still serves chat: never cooled (reference §3.3 step 12). */
export const ROUTE_RESTRICTION_SIGNALS: readonly string[] = ['not authorized for this route'];

/** Missing credentials on the upstream's side; cooled for two minutes. */
export const NO_CREDENTIALS_SIGNALS: readonly string[] = ['no credentials'];

export const DAILY_QUOTA_SIGNALS: readonly string[] = ["today's quota", 'daily quota', 'try again tomorrow'];
/** A tokens-per-day limit resets on the provider's own clock; without a reset hint do not guess midnight. */
export const TPD_SIGNALS: readonly string[] = ['tpd rate limit'];
export const WEEKLY_LIMIT_SIGNALS: readonly string[] = [
  'weekly usage limit',
  'weekly limit reached',
  'reached your weekly',
];
export const SESSION_LIMIT_SIGNALS: readonly string[] = ['session usage limit', 'session limit reached'];
export const SUBSCRIPTION_LIMIT_SIGNALS: readonly string[] = [
  'usage limit reached',
  'usage limit has been',
  'claude pro usage limit',
  "you've reached your usage limit",
  'you have reached your usage limit',
];
/** Claude only: its account-wide limit wording. */
export const CLAUDE_ACCOUNT_LIMIT_SIGNALS: readonly string[] = ["this request would exceed your account's rate limit"];

export const ENDPOINT_MOVED_SIGNALS: readonly string[] = ['endpoint has moved', 'update your base url'];
/** Too generic to trust on any status ("this parameter no longer works"): only with 404/410. */
export const ENDPOINT_GONE_SIGNALS: readonly string[] = ['no longer works'];

export const MODEL_RETIRED_PATTERNS: readonly RegExp[] = [
  /no longer (available|supported)/,
  /has reached (its |the )?end of life/,
  /model.{0,80}\b(deprecated|retired|discontinued|decommissioned)\b/,
  /\b(deprecated|retired|discontinued|decommissioned)\b.{0,80}model/,
];

/** "suspended" within ~120 characters of a billing word, either order. */
export const BILLING_SUSPENDED_PATTERNS: readonly RegExp[] = [
  /suspended[\s\S]{0,120}(spending limit|billing|invoice|payment)/,
  /(spending limit|billing|invoice|payment)[\s\S]{0,120}suspended/,
];

/** Moonshot's empty wallet: trusted as credits exhaustion even behind a generic gateway. */
export const EMPTY_WALLET_PATTERNS: readonly RegExp[] = [/account .{0,40}is suspended.{0,80}(recharge|balance)/];

export function includesAny(text: string, signals: readonly string[]): boolean {
  return signals.some((s) => s !== '' && text.includes(s.toLowerCase()));
}

export function matchesAny(text: string, patterns: readonly RegExp[]): boolean {
  return patterns.some((p) => p.test(text));
}
