import type { ClaudeActiveLane, ClaudeLaneBlocks, ClaudeLaneView } from '../../../../src-shared/domain/claude';

export { LANE_END_TEXT } from '../../../../src-shared/domain/claude';
import { expireLane, laneExpiresAtMs } from './lane-state';
import { getLaneEntry, type LaneStore } from './lane-store';

/** The UI's view of a lane; the type lives in the contract so window, tray and core share one shape. */
export type LaneSnapshot = ClaudeLaneView;

/** The lane of one connection at `now`, lazy expiry applied; never exposes the store's keys. */
export function snapshotLane(store: LaneStore, key: string, now: number): LaneSnapshot {
  const entry = expireLane(getLaneEntry(store, key), now);
  const { phase } = entry;
  if (phase.kind === 'active') {
    const view: ClaudeActiveLane = {
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
  const blocks: ClaudeLaneBlocks = {};
  if (entry.coolingOffUntilMs !== undefined && now < entry.coolingOffUntilMs) {
    blocks.coolingOffUntilMs = entry.coolingOffUntilMs;
  }
  const budgetUntil = entry.budgetSpentUntilSeconds === undefined ? undefined : entry.budgetSpentUntilSeconds * 1000;
  if (budgetUntil !== undefined && now < budgetUntil) blocks.budgetSpentUntilMs = budgetUntil;
  if (!entry.lastEnd) return { kind: 'idle', ...blocks };
  return { kind: 'ended', reason: entry.lastEnd.reason, atMs: entry.lastEnd.atMs, ...blocks };
}
