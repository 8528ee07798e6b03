import type { TargetExclusion } from '../../../src-shared/domain/cooldown';
import type { ComboCooldownWaitSettings } from '../../../src-shared/domain/resilience-combo-wait';

/** One excluded target with what is behind its exclusion: the classifier's reason and when it ends. */
export interface WaitCandidate {
  connection: string;
  model: string | null;
  reason: TargetExclusion['reason'];
  /** The failure reason that set the cooldown or lockout (`rate_limit_exceeded`, `quota_exhausted` …); null when unknown. */
  cause: string | null;
  /** Epoch ms the exclusion ends; null when it does not end by time. */
  until: number | null;
}

/** What one request has waited so far. */
export interface HeldSoFar {
  waits: number;
  heldMs: number;
}

export type WaitDecision =
  { kind: 'wait'; ms: number; until: number; connection: string } | { kind: 'give-up'; why: GiveUpReason };

export type GiveUpReason = 'disabled' | 'max_attempts' | 'not_transient' | 'too_long' | 'budget';

/** Woken this much after the end, so the target is selectable again when the next pass screens it. */
export const WAIT_MARGIN_MS = 50;

/**
 * Targets cooled by one burst (a combo's targets answering 429 one after the other) come back a
 * few milliseconds apart: the wait runs to the last of those due this soon after the first, so the
 * next pass has them all and one more failure there can still fail over (issue 21 §13).
 */
export const TOGETHER_MS = 1_000;

/**
 * Causes a short wait may heal (CONC-7): per-minute rate limits, overload, server errors. Never
 * `quota_exhausted` (locked until a reset), auth or not-found causes (CONC-9), nor an unknown one.
 */
const TRANSIENT_CAUSES: ReadonlySet<string> = new Set(['rate_limit_exceeded', 'model_capacity', 'server_error']);

/**
 * Whether waiting for this exclusion's end can make its target serve. A connection cooldown or a
 * model lockout only for a transient cause; a breaker or provider gate (failure-rate timers) when
 * it ends by time. Terminal states, leases, quota holds (the quota engine answers with its own
 * Retry-After), busy slots and structural reasons (disabled, wrong format …) never.
 */
export function isWaitable(c: WaitCandidate): boolean {
  if (c.until === null) return false;
  switch (c.reason) {
    case 'unavailable':
    case 'model_lockout':
      return c.cause !== null && TRANSIENT_CAUSES.has(c.cause);
    case 'circuit_open':
    case 'provider_cooldown':
      return true;
    default:
      return false;
  }
}

/**
 * CONC-7..9: wait for the earliest waitable target, or give up. Targets that waiting cannot bring
 * back (quota_exhausted, auth, not-found, terminal, leased, quota …) are never waited for; they do
 * not stop a wait for another target of the combo that is back within the bounds. Bounds are
 * inclusive: a wait of exactly `maxWaitMs` or of exactly the remaining budget is taken.
 */
export function decideCooldownWait(
  candidates: readonly WaitCandidate[],
  held: HeldSoFar,
  settings: ComboCooldownWaitSettings,
  now: number,
): WaitDecision {
  if (!settings.enabled) return { kind: 'give-up', why: 'disabled' };
  if (held.waits >= settings.maxAttempts) return { kind: 'give-up', why: 'max_attempts' };
  let earliest: WaitCandidate | null = null;
  for (const c of candidates) {
    if (!isWaitable(c) || c.until === null) continue;
    if (earliest === null || (earliest.until !== null && c.until < earliest.until)) earliest = c;
  }
  if (earliest === null || earliest.until === null || !Number.isFinite(earliest.until))
    return { kind: 'give-up', why: 'not_transient' };
  const remaining = Math.max(0, earliest.until - now);
  if (remaining > settings.maxWaitMs) return { kind: 'give-up', why: 'too_long' };
  if (remaining > settings.budgetMs - held.heldMs) return { kind: 'give-up', why: 'budget' };
  // The bounds judge the first target back; the ones due with it may stretch the wait a little,
  // never past a bound.
  const limit = now + Math.min(settings.maxWaitMs, settings.budgetMs - held.heldMs);
  let end = Math.max(now, earliest.until);
  for (const c of candidates) {
    if (!isWaitable(c) || c.until === null || c.until <= end) continue;
    if (c.until - earliest.until <= TOGETHER_MS && c.until <= limit) end = c.until;
  }
  return {
    kind: 'wait',
    ms: end - now + WAIT_MARGIN_MS,
    until: end + WAIT_MARGIN_MS,
    connection: earliest.connection,
  };
}
