import { expireLane, laneExpiresAtMs, type LaneEndReason } from './lane-state';
import { getLaneEntry, type LaneStore } from './lane-store';

/** Blocks on re-entering the lane that are still running at snapshot time. */
export interface LaneBlocks {
  coolingOffUntilMs?: number;
  budgetSpentUntilMs?: number;
}

export interface ActiveLaneView {
  acceptedAtMs: number;
  /** When the wall resets; the lane itself lapses one minute later. */
  resetsAtMs: number;
  expiresAtMs: number;
  retryAfterMs: number;
  maxWaitMs: number;
  requestsServed: number;
  requestsServedStandard: number;
  budgetUtilization?: number;
}

/** One connection's lane as the UI shows it. */
export type LaneSnapshot =
  | ({ kind: 'idle' } & LaneBlocks)
  | ({ kind: 'active' } & ActiveLaneView)
  | ({ kind: 'waiting'; attempts: number; waitingSinceMs: number; nextTryAtMs: number } & ActiveLaneView)
  | ({ kind: 'ended'; reason: LaneEndReason; atMs: number } & LaneBlocks);

/** One sentence per end reason, for the connection card and the activity feed. */
export const LANE_END_TEXT: Readonly<Record<LaneEndReason, string>> = {
  reset: 'the usage window reset',
  weekly: 'the weekly limit was reached',
  budget: 'the low-priority budget is spent',
  off: 'Anthropic switched the low-priority lane off',
  ineligible: 'the account is not eligible for the low-priority lane',
  wall: 'the account hit its usage wall',
  max_wait: 'no slot freed up within the allowed wait',
  extra_usage: 'paid extra usage now covers the limit',
  operator: 'stopped by the operator',
};

/** The lane of one connection at `now`, lazy expiry applied; never exposes the store's keys. */
export function snapshotLane(store: LaneStore, key: string, now: number): LaneSnapshot {
  const entry = expireLane(getLaneEntry(store, key), now);
  const { phase } = entry;
  if (phase.kind === 'active') {
    const view: ActiveLaneView = {
      acceptedAtMs: phase.acceptedAtMs,
      resetsAtMs: phase.resetsAtSeconds * 1000,
      expiresAtMs: laneExpiresAtMs(phase.resetsAtSeconds),
      retryAfterMs: entry.retryAfterMs,
      maxWaitMs: entry.maxWaitMs,
      requestsServed: entry.requestsServed,
      requestsServedStandard: entry.requestsServedStandard,
      ...(entry.budgetUtilization !== undefined ? { budgetUtilization: entry.budgetUtilization } : {}),
    };
    const wait = entry.wait;
    if (!wait || wait.sinceMs < phase.acceptedAtMs) return { kind: 'active', ...view };
    return {
      kind: 'waiting',
      ...view,
      attempts: wait.attempts,
      waitingSinceMs: wait.sinceMs,
      nextTryAtMs: wait.nextTryAtMs,
    };
  }
  const blocks: LaneBlocks = {};
  if (entry.coolingOffUntilMs !== undefined && now < entry.coolingOffUntilMs) {
    blocks.coolingOffUntilMs = entry.coolingOffUntilMs;
  }
  const budgetUntil = entry.budgetSpentUntilSeconds === undefined ? undefined : entry.budgetSpentUntilSeconds * 1000;
  if (budgetUntil !== undefined && now < budgetUntil) blocks.budgetSpentUntilMs = budgetUntil;
  if (!entry.lastEnd) return { kind: 'idle', ...blocks };
  return { kind: 'ended', reason: entry.lastEnd.reason, atMs: entry.lastEnd.atMs, ...blocks };
}
