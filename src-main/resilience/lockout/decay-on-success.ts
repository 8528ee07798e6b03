import { keysCovering } from './lockout-keys';
import type { ModelLockouts } from './model-lockouts';

export interface DecayResult {
  state: ModelLockouts;
  /** True only when entries existed and every one of them reached 0 and was deleted. */
  cleared: boolean;
  /** Largest failure count left on any key of the model; 0 when none is left. */
  failureCount: number;
}

/**
 * A combo target on this model succeeded: halve (floor) the failure count on every key shape and
 * delete entries that reach 0, which also lifts their lock (LOCK-12). A lock with a count left
 * runs out on its own; one success is a hint, not proof the quota is back.
 */
export function decayOnSuccess(
  state: ModelLockouts,
  provider: string,
  connectionId: string,
  model: string,
): DecayResult {
  // Every success passes here and lockouts are rare: no keys built while nothing is locked.
  if (!hasAnyKey(state)) return { state, cleared: false, failureCount: 0 };
  const keys = keysCovering(provider, connectionId, model).filter((key) => Object.hasOwn(state, key));
  if (keys.length === 0) return { state, cleared: false, failureCount: 0 };
  const next: Record<string, ModelLockouts[string]> = { ...state };
  let left = 0;
  for (const key of keys) {
    const entry = next[key];
    if (!entry) continue;
    const failureCount = Math.floor(entry.failureCount / 2);
    if (failureCount === 0) delete next[key];
    else next[key] = { ...entry, failureCount };
    left = Math.max(left, failureCount);
  }
  return { state: next, cleared: left === 0, failureCount: left };
}

function hasAnyKey(state: ModelLockouts): boolean {
  for (const key in state) if (Object.hasOwn(state, key)) return true;
  return false;
}
