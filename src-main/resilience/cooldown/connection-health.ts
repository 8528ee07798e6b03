/** States a connection can be in; the last three are terminal and need a person (COOL-7). */
export type TestStatus = 'active' | 'unavailable' | 'banned' | 'expired' | 'credits_exhausted' | 'needs_reauth';
/** `needs_reauth`: a Claude OAuth refresh token was refused; only a new sign-in (new credential) helps. */
export type TerminalStatus = Extract<TestStatus, 'banned' | 'expired' | 'credits_exhausted' | 'needs_reauth'>;

/**
 * Cooldown and terminal state of one connection (COOL-2), flat so each field maps to one SQLite
 * column. `testStatus` is the discriminant; times are epoch ms.
 */
export interface ConnectionHealth {
  readonly testStatus: TestStatus;
  /** End of the transient cooldown; kept after it passes, because the read path expires lazily (COOL-11). */
  readonly rateLimitedUntil: number | null;
  readonly lastError: string | null;
  /** The classifier's reason, e.g. `rate_limit_exceeded`, `request_rejected`. */
  readonly lastErrorType: string | null;
  /** Upstream status (as text) or a provider code. */
  readonly errorCode: string | null;
  readonly lastFailureAt: number | null;
  /** Exponent of the computed cooldown (COOL-5); 0 after a success or an upstream hint. */
  readonly backoffLevel: number;
  /** Counted `request_rejected` refusals (COOL-8) and when the last one was counted. */
  readonly rejectedStreak: number;
  readonly lastRejectedAt: number | null;
  /** Expired-credential retries already granted (COOL-9) and when the last one was granted. */
  readonly expiredRetries: number;
  readonly lastExpiredAt: number | null;
}

/** A connection that has never failed, or was reset. */
export const HEALTHY: ConnectionHealth = Object.freeze({
  testStatus: 'active',
  rateLimitedUntil: null,
  lastError: null,
  lastErrorType: null,
  errorCode: null,
  lastFailureAt: null,
  backoffLevel: 0,
  rejectedStreak: 0,
  lastRejectedAt: null,
  expiredRetries: 0,
  lastExpiredAt: null,
});

export function isTerminalStatus(status: TestStatus): status is TerminalStatus {
  return status === 'banned' || status === 'expired' || status === 'credits_exhausted' || status === 'needs_reauth';
}

export type Selectability =
  { ok: true } | { ok: false; reason: 'cooldown'; retryAfterMs: number } | { ok: false; reason: TerminalStatus };

/**
 * Whether credential selection may pick this connection now (COOL-13). A cooldown ends exactly at
 * `rateLimitedUntil` with no write needed (COOL-11, PROV-8); terminal states never end on their own.
 */
export function isSelectable(state: ConnectionHealth, now: number): Selectability {
  if (isTerminalStatus(state.testStatus)) return { ok: false, reason: state.testStatus };
  if (state.rateLimitedUntil !== null && now < state.rateLimitedUntil) {
    return { ok: false, reason: 'cooldown', retryAfterMs: state.rateLimitedUntil - now };
  }
  return { ok: true };
}

/** The status a panel should show: a stored `unavailable` whose cooldown has passed reads as `active` (PROV-9). */
export function effectiveTestStatus(state: ConnectionHealth, now: number): TestStatus {
  if (state.testStatus !== 'unavailable') return state.testStatus;
  return isSelectable(state, now).ok ? 'active' : 'unavailable';
}
