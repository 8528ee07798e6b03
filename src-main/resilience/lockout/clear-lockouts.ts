import { isStale, NO_LOCKOUTS, type ModelLockouts } from './model-lockouts';

function without(state: ModelLockouts, keys: readonly string[]): ModelLockouts {
  if (!keys.some((key) => Object.hasOwn(state, key))) return state;
  const next = { ...state };
  for (const key of keys) delete next[key];
  return next;
}

/** Re-enables one lock by its key (a row of `listLockouts`), forgetting its escalation too. */
export function clearLockout(state: ModelLockouts, key: string): ModelLockouts {
  return without(state, [key]);
}

/** `POST /api/resilience/reset` and "clear all" in the panel. */
export function clearAllLockouts(_state: ModelLockouts): ModelLockouts {
  return NO_LOCKOUTS;
}

/** Drops entries that neither lock nor remember anything; same object back when none qualify. */
export function pruneLockouts(state: ModelLockouts, now: number): ModelLockouts {
  return without(
    state,
    Object.entries(state)
      .filter(([, entry]) => isStale(entry, now))
      .map(([key]) => key),
  );
}
