import { clampHintMs, LANE } from './lane-constants';
import { expireLane, type LaneEntry } from './lane-state';
import type { UnifiedHeaders } from './unified-headers';

/** Why an offer was not taken, for logs and the activity feed. */
export type ActivationRefusal = 'already_active' | 'not_offered' | 'budget_spent' | 'cooling_off' | 'no_future_reset';

export type ActivationResult = { kind: 'activated'; entry: LaneEntry } | { kind: 'refused'; why: ActivationRefusal };

/**
 * Takes the server's wait hints: retry-after and max-wait clamped (LOWP-7, LOWP-8), budget
 * utilisation only when it is a fraction. Applied before any decision on the response.
 */
export function applyWaitHints(entry: LaneEntry, headers: UnifiedHeaders): LaneEntry {
  const { slowRetryAfterSeconds, slowMaxWaitSeconds, slowBudgetUtilization } = headers;
  if (slowRetryAfterSeconds === undefined && slowMaxWaitSeconds === undefined && slowBudgetUtilization === undefined) {
    return entry;
  }
  return {
    ...entry,
    retryAfterMs: clampHintMs(slowRetryAfterSeconds, entry.retryAfterMs, LANE.minRetryAfterMs, LANE.maxRetryAfterMs),
    maxWaitMs: clampHintMs(slowMaxWaitSeconds, entry.maxWaitMs, LANE.minMaxWaitMs, LANE.maxMaxWaitMs),
    ...(slowBudgetUtilization !== undefined && slowBudgetUtilization <= 1
      ? { budgetUtilization: slowBudgetUtilization }
      : {}),
  };
}

function refusal(entry: LaneEntry, headers: UnifiedHeaders, now: number): ActivationRefusal | null {
  if (entry.phase.kind === 'active') return 'already_active';
  if (headers.slowOffer !== 'treatment') return 'not_offered';
  if (entry.budgetSpentUntilSeconds !== undefined && now < entry.budgetSpentUntilSeconds * 1000) return 'budget_spent';
  if (entry.coolingOffUntilMs !== undefined && now < entry.coolingOffUntilMs) return 'cooling_off';
  const resetsAt = headers.resetSeconds ?? headers.fiveHourResetSeconds;
  if (resetsAt === undefined || resetsAt * 1000 <= now) return 'no_future_reset';
  return null;
}

/**
 * Accepts the slow-lane offer of a wall 429 (LOWP-4): only a `treatment` offer, a reset in the
 * future, no spent budget (LOWP-11) and no max-wait cool-off (LOWP-8). The lane then runs until
 * `unified-reset` (else `5h-reset`) with fresh hints and counters.
 */
export function tryActivate(entry: LaneEntry, headers: UnifiedHeaders, now: number): ActivationResult {
  const current = expireLane(entry, now);
  const why = refusal(current, headers, now);
  if (why) return { kind: 'refused', why };
  const resetsAtSeconds = headers.resetSeconds ?? headers.fiveHourResetSeconds ?? 0;
  const { budgetUtilization: _stale, ...rest } = current;
  const fresh: LaneEntry = {
    ...rest,
    phase: { kind: 'active', resetsAtSeconds, acceptedAtMs: now },
    retryAfterMs: LANE.defaultRetryAfterMs,
    maxWaitMs: LANE.defaultMaxWaitMs,
    requestsServed: 0,
    requestsServedStandard: 0,
    wait: null,
  };
  const { slowBudgetUtilization: _ignored, ...hints } = headers;
  // Budget utilisation is lane telemetry: it starts empty and comes from slow requests only.
  return { kind: 'activated', entry: applyWaitHints(fresh, hints) };
}
