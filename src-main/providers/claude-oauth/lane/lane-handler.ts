import { tryActivate } from './lane-activation';
import { hasAnyOptIn, type LaneOptIns } from './lane-config';
import { observeSlowResponse } from './lane-observe';
import { expireLane, type LaneDecision, type LaneEntry } from './lane-state';
import { getLaneEntry, putLaneEntry, type LaneStore } from './lane-store';
import { isAtWall, type UnifiedHeaders } from './unified-headers';

/** One upstream response, after the executor's own 400-driven retries (LOWP-12). */
export interface LaneResponseInput {
  key: string;
  status: number;
  /** The response's unified headers, parsed once per response by the caller (issue 22 step 3). */
  unified: UnifiedHeaders;
  /** Whether this request went out with `anthropic-usage-limit: slow`. */
  sentSlow: boolean;
  /** Absolute instant this request may wait until (LOWP-9); see `laneWaitDeadline`. */
  waitDeadlineMs?: number;
}

export interface LaneResult {
  state: LaneStore;
  decision: LaneDecision;
}

/** What the session-limit reset reported; a thrown claim counts as `{ reset: false }`. */
export interface ClaimOutcome {
  reset: boolean;
}

/** A wall 429 waiting on the reset claim; hand it back to `applyClaimOutcome`. */
export interface PendingClaim {
  key: string;
  headers: UnifiedHeaders;
  lowPriorityMode: boolean;
}

export type LanePlan = ({ kind: 'decided' } & LaneResult) | { kind: 'claim'; state: LaneStore; pending: PendingClaim };

const NONE: LaneDecision = { kind: 'none' };
const ACCEPTED: LaneDecision = { kind: 'retry', delayMs: 0, via: 'low-priority-accepted' };

function decided(state: LaneStore, key: string, entry: LaneEntry, decision: LaneDecision): LanePlan {
  return { kind: 'decided', state: putLaneEntry(state, key, entry), decision };
}

/** Accepts the offer (or re-joins a lane a sibling already opened); else the 429 goes on to cooldown. */
function joinLane(state: LaneStore, key: string, headers: UnifiedHeaders, now: number): LaneResult {
  const entry = expireLane(getLaneEntry(state, key), now);
  if (entry.phase.kind === 'active') return { state: putLaneEntry(state, key, entry), decision: ACCEPTED };
  const activation = tryActivate(entry, headers, now);
  if (activation.kind === 'refused') return { state: putLaneEntry(state, key, entry), decision: NONE };
  return { state: putLaneEntry(state, key, activation.entry), decision: ACCEPTED };
}

/**
 * Called once per upstream response on an eligible connection. Active lane: a header-less
 * sibling's wall 429 re-joins it, other header-less responses are ignored, slow ones are observed.
 * Idle lane: only a wall 429 with an opt-in matters; it asks for the reset claim first when
 * `autoLimitReset` is on and the five-hour window is to blame (RESET-2), else accepts the offer.
 */
export function planWallResponse(
  state: LaneStore,
  input: LaneResponseInput,
  optIns: LaneOptIns,
  now: number,
  random: () => number,
): LanePlan {
  const { key, status, sentSlow } = input;
  const headers = input.unified;
  const entry = expireLane(getLaneEntry(state, key), now);
  if (entry.phase.kind === 'active') {
    if (!sentSlow) return decided(state, key, entry, status === 429 && isAtWall(headers) ? ACCEPTED : NONE);
    const observed = observeSlowResponse(entry, { status, headers, waitDeadlineMs: input.waitDeadlineMs }, now, random);
    return decided(state, key, observed.entry, observed.decision);
  }
  if (status !== 429 || !hasAnyOptIn(optIns) || !isAtWall(headers)) return decided(state, key, entry, NONE);
  const claim = headers.representativeClaim;
  if (optIns.autoLimitReset && (claim === undefined || claim === 'five_hour')) {
    const pending = { key, headers, lowPriorityMode: optIns.lowPriorityMode };
    return { kind: 'claim', state: putLaneEntry(state, key, entry), pending };
  }
  if (!optIns.lowPriorityMode) return decided(state, key, entry, NONE);
  return { kind: 'decided', ...joinLane(putLaneEntry(state, key, entry), key, headers, now) };
}

/**
 * Finishes a wall 429 after the reset claim: granted → retry at full speed (RESET-6); otherwise
 * the lane if opted in (RESET-9), else the 429 continues to cooldown. Pass the store as it is
 * after the await, and `now` read after it: siblings may have moved on meanwhile.
 */
export function applyClaimOutcome(
  state: LaneStore,
  pending: PendingClaim,
  outcome: ClaimOutcome,
  now: number,
): LaneResult {
  if (outcome.reset) return { state, decision: { kind: 'retry', delayMs: 0, via: 'limit-reset' } };
  if (!pending.lowPriorityMode) return { state, decision: NONE };
  return joinLane(state, pending.key, pending.headers, now);
}

/** Runs a claim so that a rejection or throw becomes "not reset" instead of reaching the caller. */
export async function settleClaim(claim: () => Promise<ClaimOutcome>): Promise<ClaimOutcome> {
  try {
    return await claim();
  } catch {
    return { reset: false };
  }
}

export interface LaneDeps {
  optIns: LaneOptIns;
  /** A claim whose outcome is known synchronously; omit it and the reset is never tried. */
  claim?: () => ClaimOutcome;
}

/**
 * The whole decision in one synchronous call, for callers whose claim outcome is already known
 * (and for tests); the proxy with a real, async claim uses `planWallResponse` + `applyClaimOutcome`.
 */
export function handleUsageLimitResponse(
  state: LaneStore,
  input: LaneResponseInput,
  deps: LaneDeps,
  now: number,
  random: () => number,
): LaneResult {
  const optIns = { ...deps.optIns, autoLimitReset: deps.optIns.autoLimitReset && deps.claim !== undefined };
  const plan = planWallResponse(state, input, optIns, now, random);
  if (plan.kind === 'decided') return { state: plan.state, decision: plan.decision };
  let outcome: ClaimOutcome = { reset: false };
  try {
    outcome = deps.claim?.() ?? outcome;
  } catch {
    // RESET-8's backoff lives with the claim; here a throw simply means "no reset".
  }
  return applyClaimOutcome(plan.state, plan.pending, outcome, now);
}
