import { isTerminalStatus, type ConnectionHealth } from './connection-health';

/**
 * Merges a connection's health learnt by another instance into ours (issue 24 §4). Returns `local`
 * itself when the remote adds nothing, so the caller writes nothing.
 *
 * - A terminal state (banned, expired, out of credits, sign-in needed) spreads: it needs a person anyway.
 * - Cooldowns: the later-expiring one wins, with its reason; a cooldown never shortens.
 * - Streak counters are not added up (each instance counts its own), so nothing is doubled.
 */
export function mergeHealth(local: ConnectionHealth, remote: ConnectionHealth): ConnectionHealth {
  if (isTerminalStatus(local.testStatus)) return local;
  if (isTerminalStatus(remote.testStatus)) return remote;
  const mine = local.rateLimitedUntil ?? 0;
  const theirs = remote.rateLimitedUntil ?? 0;
  if (theirs <= mine) return local;
  return {
    ...local,
    testStatus: 'unavailable',
    rateLimitedUntil: theirs,
    lastError: remote.lastError,
    lastErrorType: remote.lastErrorType,
    errorCode: remote.errorCode,
    lastFailureAt: remote.lastFailureAt,
    backoffLevel: Math.max(local.backoffLevel, remote.backoffLevel),
  };
}
