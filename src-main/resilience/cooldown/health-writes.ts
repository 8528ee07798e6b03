// The few ways a failure may change a connection row, shared by the transient and streak paths.
import type { ConnectionFailure, CooldownSource, FailureOutcome } from './connection-failure';
import type { ConnectionHealth, TerminalStatus } from './connection-health';
import type { CooldownContext } from './cooldown-settings';
import { formatDuration } from './format-duration';

/** Upstream bodies can be pages of HTML; the row only needs enough to recognise the error. */
const MAX_ERROR_CHARS = 300;

/** How a terminal status reads in a decision reason. */
export const TERMINAL_LABEL: Record<TerminalStatus, string> = {
  banned: 'banned',
  expired: 'expired (credentials no longer accepted)',
  credits_exhausted: 'out of credits',
  needs_reauth: 'sign-in needed',
};

/** `reason (HTTP status)` for decision reasons. */
export function label(failure: ConnectionFailure): string {
  return failure.status === null ? failure.reason : `${failure.reason} (HTTP ${failure.status})`;
}

/** Diagnostics every counted failure leaves on the row (COOL-2). */
export function noted(state: ConnectionHealth, failure: ConnectionFailure, now: number): ConnectionHealth {
  return {
    ...state,
    lastError: failure.message.slice(0, MAX_ERROR_CHARS) || null,
    lastErrorType: failure.reason,
    errorCode: failure.status === null ? null : String(failure.status),
    lastFailureAt: now,
  };
}

/** Nothing to write: the same state object goes back (COOL-6). */
export function absorbed(state: ConnectionHealth, retryAfterMs: number, reason: string): FailureOutcome {
  return { state, decision: { kind: 'absorbed', retryAfterMs, reason } };
}

/** Parks the connection in a terminal state (COOL-7). */
export function terminal(state: ConnectionHealth, status: TerminalStatus, reason: string): FailureOutcome {
  // A terminal connection is not cooling; it waits for a person (COOL-10).
  return {
    state: { ...state, testStatus: status, rateLimitedUntil: null },
    decision: { kind: 'terminal', status, reason },
  };
}

/** Writes the cooldown unless the connection opted out (COOL-15); never shortens one already running. */
export function cool(
  state: ConnectionHealth,
  context: CooldownContext,
  now: number,
  cooldown: { cooldownMs: number; source: CooldownSource; backoffLevel: number },
  why: string,
): FailureOutcome {
  if (context.disableCooling) {
    return { state, decision: { kind: 'not_cooled', reason: `${why}; cooling is disabled for this connection` } };
  }
  const until = Math.max(now + cooldown.cooldownMs, state.rateLimitedUntil ?? 0);
  const { source, backoffLevel } = cooldown;
  return {
    state: { ...state, testStatus: 'unavailable', rateLimitedUntil: until, backoffLevel },
    decision: {
      kind: 'cooldown',
      source,
      cooldownMs: until - now,
      until,
      backoffLevel,
      reason: `${why}; cooling for ${formatDuration(until - now)}`,
    },
  };
}
