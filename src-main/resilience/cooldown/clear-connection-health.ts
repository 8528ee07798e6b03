import { HEALTHY, isTerminalStatus, type ConnectionHealth } from './connection-health';

function sameHealth(a: ConnectionHealth, b: ConnectionHealth): boolean {
  return (Object.keys(HEALTHY) as (keyof ConnectionHealth)[]).every((field) => a[field] === b[field]);
}

/**
 * A request succeeded: clear every error field, the backoff level and both streaks (COOL-12).
 * Terminal states stay (COOL-10): a request that was in flight before the ban must not lift it.
 * Returns the same object when there is nothing to write.
 */
export function recordConnectionSuccess(state: ConnectionHealth): ConnectionHealth {
  if (isTerminalStatus(state.testStatus) || sameHealth(state, HEALTHY)) return state;
  return HEALTHY;
}

/**
 * Operator lifts a transient cooldown now: the connection is selectable with a fresh ladder and
 * fresh streaks, but the last error stays visible until a success clears it. Never touches a
 * terminal state (COOL-10); that takes `resetConnection`. Same object back when nothing changes.
 */
export function clearCooldown(state: ConnectionHealth): ConnectionHealth {
  if (isTerminalStatus(state.testStatus)) return state;
  const cleared: ConnectionHealth = {
    ...state,
    testStatus: 'active',
    rateLimitedUntil: null,
    backoffLevel: 0,
    rejectedStreak: 0,
    lastRejectedAt: null,
    expiredRetries: 0,
    lastExpiredAt: null,
  };
  return sameHealth(cleared, state) ? state : cleared;
}

/** Operator reset or new credentials: everything goes, terminal states included (COOL-10). */
export function resetConnection(_state: ConnectionHealth): ConnectionHealth {
  return HEALTHY;
}
