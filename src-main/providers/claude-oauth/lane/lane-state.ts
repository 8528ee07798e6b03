import { LANE } from './lane-constants';

/** Why a lane stopped; `operator` is the UI's stop button. */
export type LaneEndReason =
  'reset' | 'weekly' | 'budget' | 'off' | 'ineligible' | 'wall' | 'max_wait' | 'extra_usage' | 'operator';

export type LanePhase = { kind: 'idle' } | { kind: 'active'; resetsAtSeconds: number; acceptedAtMs: number };

/** The current run of `slot_busy` / 529 waits; shared by the connection's requests. */
export interface LaneWait {
  sinceMs: number;
  attempts: number;
  nextTryAtMs: number;
}

/** Per-connection lane state; memory only (LOWP-13). */
export interface LaneEntry {
  phase: LanePhase;
  retryAfterMs: number;
  maxWaitMs: number;
  requestsServed: number;
  requestsServedStandard: number;
  budgetUtilization?: number;
  budgetSpentUntilSeconds?: number;
  coolingOffUntilMs?: number;
  wait: LaneWait | null;
  /** Kept for the UI only; nothing decides on it. */
  lastEnd?: { reason: LaneEndReason; atMs: number };
}

/** What the proxy does with the response it just classified. */
export type LaneDecision =
  | { kind: 'none' }
  | {
      kind: 'retry';
      delayMs: number;
      via: 'limit-reset' | 'low-priority-accepted' | 'slot-busy' | 'capacity-busy';
    }
  | { kind: 'ended'; reason: LaneEndReason };

export const NO_DECISION: LaneDecision = { kind: 'none' };

/** A connection that never met the wall since start. */
export const IDLE_LANE: LaneEntry = {
  phase: { kind: 'idle' },
  retryAfterMs: LANE.defaultRetryAfterMs,
  maxWaitMs: LANE.defaultMaxWaitMs,
  requestsServed: 0,
  requestsServedStandard: 0,
  wait: null,
};

/**
 * Ends the lane: idle, counters and waits zeroed, the spent-budget memory kept. `max_wait` also
 * refuses the offer for 10 minutes so a saturated lane is not re-entered at once (LOWP-8).
 */
export function endLane(entry: LaneEntry, reason: LaneEndReason, now: number, atMs = now): LaneEntry {
  const { budgetUtilization: _dropped, ...rest } = entry;
  return {
    ...rest,
    phase: { kind: 'idle' },
    requestsServed: 0,
    requestsServedStandard: 0,
    wait: null,
    lastEnd: { reason, atMs },
    ...(reason === 'max_wait' ? { coolingOffUntilMs: now + LANE.coolOffMs } : {}),
  };
}

/** When an active lane lapses on its own: the announced reset plus grace (LOWP-5). */
export function laneExpiresAtMs(resetsAtSeconds: number): number {
  return resetsAtSeconds * 1000 + LANE.resetGraceMs;
}

/** Lazy expiry: an active lane past its reset ends `reset`, dated when it lapsed; else unchanged. */
export function expireLane(entry: LaneEntry, now: number): LaneEntry {
  if (entry.phase.kind !== 'active') return entry;
  const expiresAt = laneExpiresAtMs(entry.phase.resetsAtSeconds);
  return now >= expiresAt ? endLane(entry, 'reset', now, expiresAt) : entry;
}

/** Whether requests on this lane carry `anthropic-usage-limit: slow` at `now`. */
export function isLaneActive(entry: LaneEntry, now: number): boolean {
  return expireLane(entry, now).phase.kind === 'active';
}
