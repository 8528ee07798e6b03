import { LANE } from './lane-constants';
import { applyWaitHints } from './lane-activation';
import { endLane, type LaneEndReason, type LaneEntry } from './lane-state';
import { decideWait, type LaneOutcome } from './lane-wait';
import { isExtraUsage, type SlowStatus, type UnifiedHeaders } from './unified-headers';

/** One response to a request that went out with `anthropic-usage-limit: slow`. */
export interface SlowResponse {
  status: number;
  headers: UnifiedHeaders;
  /** Absolute instant this request may wait until (LOWP-9); see `laneWaitDeadline`. */
  waitDeadlineMs?: number;
}

/** Slow statuses that end the lane whatever the HTTP status (LOWP-10). */
const ENDING: Partial<Record<SlowStatus, LaneEndReason>> = {
  weekly_limit: 'weekly',
  budget_exhausted: 'budget',
  off: 'off',
  ineligible: 'ineligible',
};

function end(entry: LaneEntry, reason: LaneEndReason, headers: UnifiedHeaders, now: number): LaneOutcome {
  let ended = endLane(entry, reason, now);
  if (reason === 'budget') {
    // LOWP-11: refuse the offer until the budget resets; an unannounced reset leaves no memory.
    const until = headers.slowBudgetResetSeconds ?? headers.sevenDayResetSeconds;
    const cap = (now + LANE.budgetMemoryCapMs) / 1000;
    if (until !== undefined) ended = { ...ended, budgetSpentUntilSeconds: Math.min(until, cap) };
  }
  return { entry: ended, decision: { kind: 'ended', reason } };
}

function endingReason(headers: UnifiedHeaders): LaneEndReason | undefined {
  if (isExtraUsage(headers)) return 'extra_usage';
  return headers.slowStatus ? ENDING[headers.slowStatus] : undefined;
}

function observe429(entry: LaneEntry, response: SlowResponse, now: number, random: () => number): LaneOutcome {
  const { headers } = response;
  const reason = endingReason(headers);
  if (reason) return end(entry, reason, headers, now);
  if (headers.slowStatus === 'slot_busy') return decideWait(entry, 'slot-busy', now, random, response.waitDeadlineMs);
  // The wall itself (say the weekly window closed) versus a plain burst 429 the generic path retries.
  if (headers.representativeClaim !== undefined || headers.overageStatus !== undefined) {
    return end(entry, 'wall', headers, now);
  }
  return { entry, decision: { kind: 'none' } };
}

function observeOther(entry: LaneEntry, response: SlowResponse, now: number): LaneOutcome {
  const { headers, status } = response;
  const phase = entry.phase;
  if (isExtraUsage(headers)) return end(entry, 'extra_usage', headers, now);
  const rolledOver =
    phase.kind === 'active' &&
    headers.fiveHourResetSeconds !== undefined &&
    headers.fiveHourResetSeconds >= phase.resetsAtSeconds + LANE.rolloverToleranceSeconds;
  if (rolledOver) return end(entry, 'reset', headers, now);
  const reason = endingReason(headers);
  if (reason) return end(entry, reason, headers, now);
  if (status >= 400) return { entry, decision: { kind: 'none' } };
  if (headers.slowStatus === 'active') {
    return { entry: { ...entry, requestsServed: entry.requestsServed + 1, wait: null }, decision: { kind: 'none' } };
  }
  if (headers.slowStatus === 'not_needed') {
    const served = entry.requestsServedStandard + 1;
    return { entry: { ...entry, requestsServedStandard: served, wait: null }, decision: { kind: 'none' } };
  }
  return { entry, decision: { kind: 'none' } };
}

/**
 * Reads a slow request's response while the lane is active (LOWP-7, LOWP-10): hints first, then
 * 429 → end / wait / wall / nothing, 529 → wait unless the lane itself is over, other statuses →
 * rollover, end, or count the request as served slow or at standard speed.
 */
export function observeSlowResponse(
  entry: LaneEntry,
  response: SlowResponse,
  now: number,
  random: () => number,
): LaneOutcome {
  const hinted = applyWaitHints(entry, response.headers);
  if (response.status === 429) return observe429(hinted, response, now, random);
  if (response.status === 529) {
    const reason = endingReason(response.headers);
    if (reason) return end(hinted, reason, response.headers, now);
    return decideWait(hinted, 'capacity-busy', now, random, response.waitDeadlineMs);
  }
  return observeOther(hinted, response, now);
}
