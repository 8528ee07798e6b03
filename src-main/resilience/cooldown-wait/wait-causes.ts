import type { CooldownSnapshot, ModelLockoutRow, TargetExclusion } from '../../../src-shared/domain/cooldown';
import type { WaitCandidate } from './wait-decision';

/** The lock behind a `model_lockout` exclusion: the target's own model first, else the longest (as the screen does). */
function lockFor(snapshot: CooldownSnapshot, connectionId: string | null, e: TargetExclusion): ModelLockoutRow | null {
  let found: ModelLockoutRow | null = null;
  for (const lock of snapshot.models) {
    if (lock.connectionId !== connectionId && lock.connection !== e.connection) continue;
    if (lock.model === e.model) return lock;
    if (found === null || lock.expiresAt > found.expiresAt) found = lock;
  }
  return found;
}

/**
 * Joins each exclusion with the state behind it (the cooldowns snapshot): the cause of a connection
 * cooldown or model lockout and its exact end. An exclusion the snapshot does not explain keeps its
 * reason, with the rounded seconds it announced as its end.
 */
export function waitCandidatesOf(excluded: readonly TargetExclusion[], snapshot: CooldownSnapshot): WaitCandidate[] {
  const now = snapshot.now;
  return excluded.map((e) => {
    const announced = e.retryAfterSeconds === null ? null : now + e.retryAfterSeconds * 1000;
    const base = { connection: e.connection, model: e.model, reason: e.reason };
    const row = snapshot.connections.find((c) => c.name === e.connection) ?? null;
    switch (e.reason) {
      case 'unavailable': {
        // Cooling (COOL-2 fields), or the connection's failure-window gate: both carry the last failure's reason.
        const until = row?.retryAfterMs != null ? now + row.retryAfterMs : announced;
        return { ...base, cause: row?.lastErrorType ?? null, until };
      }
      case 'model_lockout': {
        const lock = lockFor(snapshot, row?.id ?? null, e);
        return { ...base, cause: lock?.reason ?? null, until: lock?.expiresAt ?? announced };
      }
      case 'circuit_open':
      case 'provider_cooldown': {
        const provider = row ? snapshot.providers.find((p) => p.provider === row.provider) : undefined;
        const ms = e.reason === 'circuit_open' ? provider?.retryAfterMs : provider?.gate?.retryAfterMs;
        return { ...base, cause: null, until: ms != null ? now + ms : announced };
      }
      default:
        return { ...base, cause: null, until: announced };
    }
  });
}
