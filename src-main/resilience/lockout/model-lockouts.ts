import { keysCovering, type LockKind } from './lockout-keys';

/** Where an upstream reset hint came from; only header and RetryInfo hints may exceed `maxCooldownMs`. */
export type HintSource = 'header' | 'google_rpc_retry_info' | 'body';

/**
 * One lock plus the failure memory behind it. The entry outlives its lock for the escalation window
 * so a model that fails again soon after keeps climbing the ladder (LOCK-11).
 */
export interface ModelLockoutEntry {
  readonly provider: string;
  readonly connectionId: string;
  /** The model whose failure set the lock (for a family lock, the latest one). */
  readonly model: string;
  readonly kind: LockKind;
  readonly reason: string;
  readonly lockedAt: number;
  /** Lock end, epoch ms; the lock is over exactly then (lazy expiry, PROV-8). */
  readonly until: number;
  readonly failureCount: number;
  readonly lastFailureAt: number;
  readonly lastCooldownMs: number;
  readonly hintSource: HintSource | null;
}

/** All model lockouts of the process, keyed as in LOCK-13. In memory only; never persisted. */
export type ModelLockouts = Readonly<Record<string, ModelLockoutEntry>>;

export const NO_LOCKOUTS: ModelLockouts = Object.freeze({});

/** How long after a lock ends a new failure still counts as "again" (OQ-7 leaves it open; the reference uses 30 min). */
export const LOCKOUT_ESCALATION_WINDOW_MS = 1_800_000;

/** An entry that neither locks nor remembers anything worth escalating from. */
export function isStale(entry: ModelLockoutEntry, now: number): boolean {
  return now >= entry.until && now - entry.until > LOCKOUT_ESCALATION_WINDOW_MS;
}

export interface ActiveLock {
  key: string;
  expiresAt: number;
  reason: string;
}

/** The lock that keeps this model from being routed, checking every key shape; the longest wins. */
export function isModelLocked(
  state: ModelLockouts,
  provider: string,
  connectionId: string,
  model: string,
  now: number,
): ActiveLock | null {
  // Nearly always nothing is locked: answer without building the three key strings.
  if (isEmpty(state)) return null;
  let found: ActiveLock | null = null;
  for (const key of keysCovering(provider, connectionId, model)) {
    const entry = state[key];
    if (entry && now < entry.until && (found === null || entry.until > found.expiresAt)) {
      found = { key, expiresAt: entry.until, reason: entry.reason };
    }
  }
  return found;
}

/** A row of `Settings › Model Cooldowns` and `GET /api/resilience/model-cooldowns` (LOCK-6..8). */
export interface LockoutRow {
  key: string;
  provider: string;
  connectionId: string;
  model: string;
  kind: LockKind;
  reason: string;
  lockedAt: number;
  expiresAt: number;
  remainingMs: number;
  failureCount: number;
}

/** Active lockouts, longest remaining first. */
export function listLockouts(state: ModelLockouts, now: number): LockoutRow[] {
  return Object.entries(state)
    .filter(([, entry]) => now < entry.until)
    .map(([key, e]) => ({
      key,
      provider: e.provider,
      connectionId: e.connectionId,
      model: e.model,
      kind: e.kind,
      reason: e.reason,
      lockedAt: e.lockedAt,
      expiresAt: e.until,
      remainingMs: e.until - now,
      failureCount: e.failureCount,
    }))
    .sort((a, b) => b.remainingMs - a.remainingMs || a.key.localeCompare(b.key));
}

function isEmpty(state: ModelLockouts): boolean {
  for (const key in state) if (Object.hasOwn(state, key)) return false;
  return true;
}
