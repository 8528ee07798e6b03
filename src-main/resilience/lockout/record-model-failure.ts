import { formatDuration } from '../cooldown/format-duration';
import { lockTarget, type LockKind, type LockoutScope } from './lockout-keys';
import type { ModelLockoutSettings } from './lockout-settings';
import { isStale, type HintSource, type ModelLockoutEntry, type ModelLockouts } from './model-lockouts';
import { pruneLockouts } from './clear-lockouts';

/** Past this many entries stale ones are dropped on write; active locks are never evicted. */
const SOFT_ENTRY_CAP = 1_000;

/** A failure the classifier attributed to one model of one connection (COOL-14). */
export interface ModelFailure {
  provider: string;
  /** Empty for a combo target without a pinned connection. */
  connectionId: string;
  model: string;
  status: number | null;
  /** Classifier reason shown in the panel, e.g. `rate_limit`, `not_found`, `quality_failure`. */
  reason: string;
  /** Caller's scope; always wins over the status (LOCK-5). */
  scope?: LockoutScope;
  /** Upstream reset hint relative to `now`. */
  cooldownHintMs?: number;
  hintSource?: HintSource;
  /** For paths that lock whatever the master switch and status list say (OQ-6: connection-cooldown fall-through). */
  bypassSettingsGate?: boolean;
}

export type LockoutDecision =
  | {
      kind: 'locked';
      key: string;
      lock: LockKind;
      until: number;
      cooldownMs: number;
      failureCount: number;
      reason: string;
    }
  /** The model was already locked by the same burst; count and lock unchanged. */
  | { kind: 'absorbed'; key: string; until: number; reason: string }
  | { kind: 'skipped'; reason: string };

/** The hinted lock length when the hint beats the base: capped unless it came from a header or RetryInfo. */
export function hintedCooldownMs(failure: ModelFailure, settings: ModelLockoutSettings): number | null {
  const hint = failure.cooldownHintMs ?? 0;
  if (hint <= settings.baseCooldownMs) return null;
  const authoritative = failure.hintSource === 'header' || failure.hintSource === 'google_rpc_retry_info';
  return authoritative ? hint : Math.min(hint, settings.maxCooldownMs);
}

/** Lock length for the n-th failure: the hint if it wins, else `base * 2 ** (n - 1)` within the caps (LOCK-11). */
export function lockoutCooldownMs(failureCount: number, failure: ModelFailure, settings: ModelLockoutSettings): number {
  const hinted = hintedCooldownMs(failure, settings);
  if (hinted !== null) return hinted;
  if (!settings.useExponentialBackoff) return settings.baseCooldownMs;
  const exponent = Math.min(Math.max(0, failureCount - 1), settings.maxBackoffSteps);
  return Math.min(settings.baseCooldownMs * 2 ** exponent, settings.maxCooldownMs);
}

function gateRefusal(failure: ModelFailure, settings: ModelLockoutSettings): string | null {
  if (failure.model.trim() === '') return 'No model to lock';
  if (failure.bypassSettingsGate) return null;
  if (!settings.enabled) return 'Model lockout is turned off';
  if (failure.status === null || !settings.errorCodes.includes(failure.status)) {
    return `${failure.status === null ? 'A transport failure' : `HTTP ${failure.status}`} is not in the lockout status list`;
  }
  return null;
}

function describe(failure: ModelFailure, kind: LockKind, lockMs: number, failureCount: number): string {
  const what =
    kind === 'quota_family'
      ? `the quota family of ${failure.model}`
      : kind === 'model'
        ? failure.model
        : `exactly ${failure.model}`;
  const status = failure.status === null ? '' : ` (HTTP ${failure.status})`;
  return `${failure.reason}${status}: ${what} locked for ${formatDuration(lockMs)}, failure ${failureCount}`;
}

/**
 * Records one model failure (LOCK-1..5, LOCK-11). A failure while the key is locked comes from a
 * request dispatched before the lock: it does not escalate (the COOL-6 reasoning), only a longer
 * upstream hint may lengthen the lock. A failure within the escalation window after the lock
 * ended raises `failureCount` and with it the next lock.
 */
export function recordModelFailure(
  state: ModelLockouts,
  failure: ModelFailure,
  settings: ModelLockoutSettings,
  now: number,
): { state: ModelLockouts; decision: LockoutDecision } {
  const refusal = gateRefusal(failure, settings);
  if (refusal !== null) return { state, decision: { kind: 'skipped', reason: refusal } };
  const { key, kind } = lockTarget(
    failure.provider,
    failure.connectionId,
    failure.model,
    failure.status,
    failure.scope,
  );
  const stored = state[key];
  const previous = stored && !isStale(stored, now) ? stored : undefined;
  let failureCount: number;
  let cooldownMs: number;
  if (previous && now < previous.until) {
    const hinted = hintedCooldownMs(failure, settings);
    if (hinted === null || now + hinted <= previous.until) {
      const reason = `${failure.model} is already locked; this failure is from the same burst`;
      return { state, decision: { kind: 'absorbed', key, until: previous.until, reason } };
    }
    failureCount = previous.failureCount;
    cooldownMs = hinted;
  } else {
    // Not stale and not locked means the lock ended within the escalation window.
    failureCount = previous ? previous.failureCount + 1 : 1;
    cooldownMs = lockoutCooldownMs(failureCount, failure, settings);
  }
  const entry: ModelLockoutEntry = {
    provider: failure.provider,
    connectionId: failure.connectionId,
    model: failure.model,
    kind,
    reason: failure.reason,
    lockedAt: previous && now < previous.until ? previous.lockedAt : now,
    until: now + cooldownMs,
    failureCount,
    lastFailureAt: now,
    lastCooldownMs: cooldownMs,
    hintSource: failure.hintSource ?? null,
  };
  const written = { ...state, [key]: entry };
  const next = Object.keys(written).length > SOFT_ENTRY_CAP ? pruneLockouts(written, now) : written;
  const decision = {
    kind: 'locked' as const,
    key,
    lock: kind,
    until: entry.until,
    cooldownMs,
    failureCount,
    reason: describe(failure, kind, cooldownMs, failureCount),
  };
  return { state: next, decision };
}
