import { looksLikeLongWindowQuota, isQuotaText } from './quota-patterns';
import {
  BILLING_SUSPENDED_PATTERNS,
  CLAUDE_ACCOUNT_LIMIT_SIGNALS,
  CREDITS_EXHAUSTED_SIGNALS,
  DAILY_QUOTA_SIGNALS,
  EMPTY_WALLET_PATTERNS,
  ENDPOINT_GONE_SIGNALS,
  ENDPOINT_MOVED_SIGNALS,
  includesAny,
  matchesAny,
  MODEL_RETIRED_PATTERNS,
  ROUTE_RESTRICTION_SIGNALS,
  SESSION_LIMIT_SIGNALS,
  SUBSCRIPTION_LIMIT_SIGNALS,
  TPD_SIGNALS,
  WEEKLY_LIMIT_SIGNALS,
} from './signals';
import type { DecisionStep, ResponseFacts, Verdict } from './verdict';
import { capabilitiesOf } from '../../kernel/provider-capabilities';

const HOUR = 3_600_000;

/**
 * An API key's 429 is a short rate limit unless its text reads as a long-window quota; only then,
 * or for other statuses and OAuth accounts, do quota and credits signals count (reference §3.3 step 5).
 */
function quotaSignalsCount(f: ResponseFacts): boolean {
  return f.status !== 429 || f.profile === 'oauth' || looksLikeLongWindowQuota(f.text);
}

/**
 * A generic gateway's "insufficient balance" may be about a pool behind it, not this account: only
 * services the catalog knows (or Moonshot's empty-wallet body) make credits exhaustion terminal.
 */
export function creditsAreTerminal(f: ResponseFacts): boolean {
  return !capabilitiesOf(f.kind).genericGateway || f.service.known || matchesAny(f.text, EMPTY_WALLET_PATTERNS);
}

export function creditsVerdict(f: ResponseFacts, ruleId: string): Verdict {
  return creditsAreTerminal(f)
    ? { reason: 'credits_exhausted', scope: 'connection', terminal: 'credits_exhausted', ruleId }
    : { reason: 'quota_exhausted', scope: 'connection', ruleId: `${ruleId}-untrusted` };
}

/** Next local midnight from `now`, at most a day away: daily quotas reset on the account's calendar. */
export function msUntilLocalMidnight(now: number): number {
  const d = new Date(now);
  const midnight = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime();
  return Math.min(Math.max(midnight - now, 1), 24 * HOUR);
}

/** A fixed quota window; the upstream's own reset, when it names one, is more exact. */
function windowVerdict(f: ResponseFacts, ruleId: string, windowMs: number): Verdict {
  return { reason: 'quota_exhausted', scope: 'connection', configuredCooldownMs: f.retryHint?.ms ?? windowMs, ruleId };
}

const banned: DecisionStep = (f) =>
  includesAny(f.text, f.banSignals)
    ? { reason: 'banned', scope: 'connection', terminal: 'banned', ruleId: 'account-deactivated' }
    : null;

const modelRetired: DecisionStep = (f) =>
  (f.status === 404 || f.status === 410) && matchesAny(f.text, MODEL_RETIRED_PATTERNS)
    ? { reason: 'not_found', scope: 'model', configuredCooldownMs: 24 * HOUR, ruleId: 'model-retired' }
    : null;

/** The base URL itself is wrong: every connection on this origin is affected. */
const endpointMoved: DecisionStep = (f) =>
  includesAny(f.text, ENDPOINT_MOVED_SIGNALS) ||
  ((f.status === 404 || f.status === 410) && includesAny(f.text, ENDPOINT_GONE_SIGNALS))
    ? { reason: 'not_found', scope: 'provider', configuredCooldownMs: 24 * HOUR, ruleId: 'endpoint-moved' }
    : null;

const billingSuspended: DecisionStep = (f) =>
  matchesAny(f.text, BILLING_SUSPENDED_PATTERNS) ? creditsVerdict(f, 'billing-suspended') : null;

const creditsExhausted: DecisionStep = (f) =>
  quotaSignalsCount(f) && includesAny(f.text, CREDITS_EXHAUSTED_SIGNALS)
    ? creditsVerdict(f, 'credits-exhausted')
    : null;

/** Weekly and session windows first: "weekly usage limit reached" must not read as the 1 h subscription case. */
const quotaWindows: DecisionStep = (f) => {
  if (includesAny(f.text, WEEKLY_LIMIT_SIGNALS)) return windowVerdict(f, 'weekly-limit', 24 * HOUR);
  const session =
    includesAny(f.text, SESSION_LIMIT_SIGNALS) ||
    (f.text.includes('reached your session') && f.text.includes('usage limit'));
  if (session) return windowVerdict(f, 'session-limit', 5 * HOUR);
  if (!quotaSignalsCount(f)) return null;
  if (includesAny(f.text, TPD_SIGNALS))
    return f.retryHint ? windowVerdict(f, 'daily-tokens-limit', f.retryHint.ms) : null;
  if (includesAny(f.text, DAILY_QUOTA_SIGNALS)) return windowVerdict(f, 'daily-quota', msUntilLocalMidnight(f.now));
  const claude = capabilitiesOf(f.kind).anthropicErrors;
  if (
    includesAny(f.text, SUBSCRIPTION_LIMIT_SIGNALS) ||
    (claude && includesAny(f.text, CLAUDE_ACCOUNT_LIMIT_SIGNALS))
  ) {
    return windowVerdict(f, 'subscription-limit', HOUR);
  }
  return null;
};

/** Quota wording plus a parseable reset: the reset is the cooldown, via `retryHint`. */
const quotaWithReset: DecisionStep = (f) =>
  quotaSignalsCount(f) && f.retryHint !== null && isQuotaText(f.text)
    ? { reason: 'quota_exhausted', scope: 'connection', ruleId: 'quota-with-reset' }
    : null;

/** The key still serves chat; only this route is closed to it, so nobody is cooled. */
const routeRestricted: DecisionStep = (f) =>
  f.status === 403 && includesAny(f.text, ROUTE_RESTRICTION_SIGNALS)
    ? { reason: 'unknown', scope: 'request', ruleId: 'route-restricted' }
    : null;

/** Account and quota signals in the error text, in the reference's order (§3.3 step 6). */
export const SIGNAL_STEPS: readonly DecisionStep[] = [
  banned,
  modelRetired,
  endpointMoved,
  billingSuspended,
  creditsExhausted,
  quotaWindows,
  quotaWithReset,
  routeRestricted,
];
