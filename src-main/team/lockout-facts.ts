import { exactKey, familyKey, modelKey, type LockKind } from '../resilience/lockout/lockout-keys';
import type { ModelLockoutEntry, ModelLockouts } from '../resilience/lockout/model-lockouts';

/**
 * Model lockouts as team facts (issue 24 §4, LOCK-13 keeps them in memory only): a lock travels
 * with its connection's name, since connection ids differ per data dir, and each instance rebuilds
 * its own key. Merge: the later `until` wins, so a lock never shortens by being shared.
 */
export interface LockoutFact {
  /** Stable across instances: provider, connection name, kind and model. */
  name: string;
  json: string;
}

const KEY_OF: Record<LockKind, (provider: string, connectionId: string, model: string) => string> = {
  quota_family: familyKey,
  model: modelKey,
  exact: exactKey,
};

export function lockoutFact(entry: ModelLockoutEntry, connectionName: string): LockoutFact {
  return {
    name: [entry.provider, connectionName, entry.kind, entry.model].join('\u0000'),
    json: JSON.stringify({ ...entry, connectionId: '' }),
  };
}

/** The entry of a fact for this instance's connection id, or null when the JSON is not a lockout. */
export function readLockoutFact(json: string, connectionId: string): ModelLockoutEntry | null {
  try {
    const v: unknown = JSON.parse(json);
    if (typeof v !== 'object' || v === null) return null;
    const e = v as Partial<ModelLockoutEntry>;
    if (typeof e.provider !== 'string' || typeof e.model !== 'string' || typeof e.until !== 'number') return null;
    if (e.kind !== 'quota_family' && e.kind !== 'model' && e.kind !== 'exact') return null;
    return {
      provider: e.provider,
      connectionId,
      model: e.model,
      kind: e.kind,
      reason: typeof e.reason === 'string' ? e.reason : '',
      lockedAt: typeof e.lockedAt === 'number' ? e.lockedAt : e.until,
      until: e.until,
      failureCount: typeof e.failureCount === 'number' ? e.failureCount : 1,
      lastFailureAt: typeof e.lastFailureAt === 'number' ? e.lastFailureAt : e.until,
      lastCooldownMs: typeof e.lastCooldownMs === 'number' ? e.lastCooldownMs : 0,
      hintSource: e.hintSource ?? null,
    };
  } catch {
    return null;
  }
}

/** Folds a remote lock into the local ones; the later expiry wins, an equal or earlier one changes nothing. */
export function mergeLockout(state: ModelLockouts, remote: ModelLockoutEntry): ModelLockouts {
  const key = KEY_OF[remote.kind](remote.provider, remote.connectionId, remote.model);
  const local = state[key];
  if (local !== undefined && local.until >= remote.until) return state;
  return { ...state, [key]: remote };
}
