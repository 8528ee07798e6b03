import { exactKey, familyKey, modelKey, quotaFamilyOf, type LockKind } from '../resilience/lockout/lockout-keys';
import type { ModelLockoutEntry, ModelLockouts } from '../resilience/lockout/model-lockouts';

/**
 * Model lockouts as team facts (issue 24 §4, LOCK-13 keeps them in memory only): a lock travels
 * with its connection's name, since connection ids differ per data dir, and each instance rebuilds
 * its own key. Merge: the later `until` wins, so a lock never shortens by being shared. A lock that
 * goes away (operator clear, success decay) travels as a clear with its instant: it removes every
 * copy whose last failure is not newer, so a stale copy cannot bring the lock back.
 */
export interface LockoutFact {
  /** Stable across instances and one per local key: provider, connection name, kind and model. */
  name: string;
  json: string;
}

/** A lock that went away at `clearedAt`; what it covered, without a connection id. */
export interface LockoutClear {
  provider: string;
  kind: LockKind;
  model: string;
  clearedAt: number;
}

const KEY_OF: Record<LockKind, (provider: string, connectionId: string, model: string) => string> = {
  quota_family: familyKey,
  model: modelKey,
  exact: exactKey,
};

/** The model part of the name as the local key has it (a family, or the exact model's folded spelling). */
function keyModel(provider: string, kind: LockKind, model: string): string {
  if (kind === 'quota_family') return quotaFamilyOf(provider, model);
  return kind === 'exact' ? model.trim().toLowerCase() : model;
}

export function lockoutFactName(entry: Pick<ModelLockoutEntry, 'provider' | 'kind' | 'model'>, connectionName: string) {
  return [entry.provider, connectionName, entry.kind, keyModel(entry.provider, entry.kind, entry.model)].join('\u0000');
}

/** The connection name a fact is about (names hold no NUL; provider ids neither). */
export function connectionOfFact(name: string): string {
  return name.split('\u0000')[1] ?? '';
}

export function lockoutFact(entry: ModelLockoutEntry, connectionName: string): LockoutFact {
  return { name: lockoutFactName(entry, connectionName), json: JSON.stringify({ ...entry, connectionId: '' }) };
}

export function clearFact(entry: ModelLockoutEntry, connectionName: string, clearedAt: number): LockoutFact {
  const clear: LockoutClear = { provider: entry.provider, kind: entry.kind, model: entry.model, clearedAt };
  return { name: lockoutFactName(entry, connectionName), json: JSON.stringify({ cleared: true, ...clear }) };
}

function parseObject(json: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(json);
    return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const isKind = (v: unknown): v is LockKind => v === 'quota_family' || v === 'model' || v === 'exact';

/** The clear a fact states, or null when it is not one. */
export function readClearFact(json: string): LockoutClear | null {
  const v = parseObject(json);
  if (v?.cleared !== true || typeof v.provider !== 'string' || typeof v.model !== 'string') return null;
  if (!isKind(v.kind) || typeof v.clearedAt !== 'number') return null;
  return { provider: v.provider, kind: v.kind, model: v.model, clearedAt: v.clearedAt };
}

/** The entry of a fact for this instance's connection id, or null when the JSON is not a lockout. */
export function readLockoutFact(json: string, connectionId: string): ModelLockoutEntry | null {
  const e = parseObject(json);
  if (e === null || e.cleared === true || !isKind(e.kind)) return null;
  if (typeof e.provider !== 'string' || typeof e.model !== 'string' || typeof e.until !== 'number') return null;
  const num = (v: unknown, fallback: number): number => (typeof v === 'number' ? v : fallback);
  const hint = e.hintSource;
  return {
    provider: e.provider,
    connectionId,
    model: e.model,
    kind: e.kind,
    reason: typeof e.reason === 'string' ? e.reason : '',
    lockedAt: num(e.lockedAt, e.until),
    until: e.until,
    failureCount: num(e.failureCount, 1),
    lastFailureAt: num(e.lastFailureAt, e.until),
    lastCooldownMs: num(e.lastCooldownMs, 0),
    hintSource: hint === 'header' || hint === 'google_rpc_retry_info' || hint === 'body' ? hint : null,
  };
}

/** Folds a remote lock into the local ones; the later expiry wins, an equal or earlier one changes nothing. */
export function mergeLockout(state: ModelLockouts, remote: ModelLockoutEntry): ModelLockouts {
  const key = KEY_OF[remote.kind](remote.provider, remote.connectionId, remote.model);
  const local = state[key];
  if (local !== undefined && local.until >= remote.until) return state;
  return { ...state, [key]: remote };
}

/** Folds a remote clear in: the local lock goes unless a failure after the clear set or renewed it. */
export function mergeClear(state: ModelLockouts, clear: LockoutClear, connectionId: string): ModelLockouts {
  const key = KEY_OF[clear.kind](clear.provider, connectionId, clear.model);
  const local = state[key];
  if (local === undefined || local.lastFailureAt > clear.clearedAt) return state;
  const next = { ...state };
  delete next[key];
  return next;
}

/** What changed between two lockout states: entries set or replaced, and entries gone. */
export function diffLockouts(
  before: ModelLockouts,
  after: ModelLockouts,
): { set: ModelLockoutEntry[]; gone: ModelLockoutEntry[] } {
  const set = Object.entries(after)
    .filter(([key, entry]) => before[key] !== entry)
    .map(([, entry]) => entry);
  const gone = Object.entries(before)
    .filter(([key]) => !Object.hasOwn(after, key))
    .map(([, entry]) => entry);
  return { set, gone };
}
