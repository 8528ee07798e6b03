import type { ProviderIdentity, ProviderProfile } from '../../kernel/provider-identity';
import type { ErrorCatalog } from './error-catalog';
import type { OperatorRules } from './operator-rules';

/** Why an attempt failed, in the words the cooldown panel and the request log show. */
export type FailureReason =
  | 'rate_limit_exceeded'
  | 'quota_exhausted'
  | 'model_capacity'
  | 'server_error'
  | 'auth_error'
  | 'token_expired'
  | 'banned'
  | 'credits_exhausted'
  | 'request_rejected'
  | 'not_found'
  | 'model_unavailable'
  | 'context_overflow'
  | 'bad_request'
  | 'timeout'
  | 'network_error'
  | 'empty_response'
  | 'client_closed'
  | 'queue_timeout'
  | 'aborted'
  | 'unknown';

/** Who is charged for a failure (COOL-14): the narrowest scope that explains it. */
export type FailureScope = 'connection' | 'model' | 'provider' | 'request';

/** The scopes a provider rule may choose; a rule never blames the request. */
export type RuleScope = Exclude<FailureScope, 'request'>;

/** Model-lockout key shape (LOCK-2..4): whole quota family, the bare model, or the exact triple. */
export type LockScope = 'quota_family' | 'model' | 'exact';

/** Terminal connection states a failure may lead to; the cooldown engine makes the final call. */
export type TerminalCandidate = 'banned' | 'expired' | 'credits_exhausted';

import type { UpstreamSignals } from '../../kernel/upstream-signals';

/** Header values as Node and undici hand them over. */
export type HeaderBag = Readonly<Record<string, string | string[] | undefined>>;

/** What came back from one upstream attempt, or why nothing did. */
export type UpstreamOutcome =
  | { kind: 'response'; status: number; headers: HeaderBag; bodyText: string; signals: UpstreamSignals }
  /** `empty_response` is Leeway's own quality check failing an answer (the synthesised 502 of LOCK-4). */
  | { kind: 'transport'; failure: 'timeout' | 'unreachable' | 'reset' | 'empty_response' }
  /** Our side gave up: never charged to an upstream (BRK-2). */
  | { kind: 'local'; failure: 'client_closed' | 'queue_timeout' | 'aborted' };

/** An upstream's own statement of when to come back, relative to `now`. */
export interface RetryHint {
  ms: number;
  source: 'header' | 'body';
}

/** The one verdict on a failed attempt that every engine reads (ARCHITECTURE §2 step 7). */
export interface Classification {
  reason: FailureReason;
  scope: FailureScope;
  /** Another target may serve this request; false when every target would refuse it alike. */
  shouldFailover: boolean;
  /** BRK-2: only 408/500/502/503/504 and transport failures charged to the provider. */
  countsForBreaker: boolean;
  /** Status after restatement: what the client sees if this is the last target. */
  status: number | null;
  /** The upstream's original status when a restatement rule rewrote it (RESTATE-1). */
  restatedFrom?: number;
  /** RESTATE-6: the Retry-After to announce to the client; never a cooldown length. */
  announceRetryAfterMs?: number;
  /** The upstream's reset time (COOL-4); the cooldown engine decides whether to trust it. */
  retryHint: RetryHint | null;
  /**
   * A fixed cooldown this failure calls for: a matched rule's declared cooldown, or a quota window
   * (weekly 24 h, session 5 h, subscription 1 h, daily until midnight) already shortened to the
   * upstream's own reset when it named one. Absent: the cooldown engine's hint/backoff applies.
   */
  configuredCooldownMs?: number;
  terminal: TerminalCandidate | null;
  /** COOL-8 signal: the upstream refused this one request; the cooldown engine counts the streak. */
  requestRejected: boolean;
  /** LOCK-2..5 key shape when a model lockout applies; null for request-scoped and local failures. */
  lockScope: LockScope | null;
  /** Id of the provider rule or signal that decided the reason, for the log and the UI. */
  ruleId?: string;
  /** RESTATE-10: a matched rule's scope, present only when the provider honours rule scope. */
  ruleScope?: RuleScope;
  /** Short and human; at most ~200 characters of upstream text, with secrets masked. */
  message: string;
}

/** What the classifier knows about the attempt besides its outcome. */
export interface ClassifyContext {
  provider: ProviderIdentity;
  model: string | null;
  /**
   * The connection's name: when given, the message starts with it (`a1: 429 …`) and never names the
   * upstream host, which the stored last error and the UI must not show.
   */
  connection?: string;
  /** Overrides `provider.profile` (e.g. a test profile or a per-connection setting). */
  profile?: ProviderProfile;
  /** `settings.providerErrorRules` (RESTATE-17). */
  operatorRules: OperatorRules;
  /** Operator-added ban phrases (`customBannedSignals`), appended to the built-in list. */
  customBanSignals?: readonly string[];
  /** LOCK-5: a lock scope chosen by the caller always wins. */
  explicitLockScope?: LockScope;
  /** Registries (restatement, provider rules, allowlists, hosts); the built-in one by default. */
  catalog?: ErrorCatalog;
  now: number;
}

/**
 * RESTATE-13: whether a matched rule may cool the whole connection as a self-healing quota signal —
 * connection scope, quota reason, never terminal.
 */
export function isRuleConnectionQuotaScope(c: Classification): boolean {
  return c.ruleScope === 'connection' && c.reason === 'quota_exhausted' && c.terminal === null;
}
