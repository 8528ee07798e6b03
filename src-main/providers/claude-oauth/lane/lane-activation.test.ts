import { describe, expect, it } from 'vitest';
import { tryActivate } from './lane-activation';
import { snapshotLane } from './lane-snapshot';
import { IDLE_LANE, type LaneEntry } from './lane-state';
import { EMPTY_LANE_STORE, getLaneEntry, putLaneEntry, shouldSendSlow } from './lane-store';
import { activeStore, KEY, NOW, RESET_S, respond, unified, wallHeaders } from './lane.testkit';
import { parseUnifiedHeaders } from './unified-headers';

const activate = (entry: LaneEntry, headers: Record<string, string>, now = NOW) =>
  tryActivate(entry, parseUnifiedHeaders(headers), now);

function activated(entry: LaneEntry, headers: Record<string, string>, now = NOW): LaneEntry {
  const result = activate(entry, headers, now);
  if (result.kind !== 'activated') throw new Error(`refused: ${result.why}`);
  return result.entry;
}

describe('TEST-6 claude-low-priority-mode', () => {
  it('LOWP-3: before any wall the lane is idle, sends no slow header and snapshots as idle', () => {
    expect(shouldSendSlow(EMPTY_LANE_STORE, KEY, NOW)).toBe(false);
    expect(snapshotLane(EMPTY_LANE_STORE, KEY, NOW)).toEqual({ kind: 'idle' });
  });

  it('LOWP-2, LOWP-4: activation needs a treatment offer and a future reset', () => {
    expect(activate(IDLE_LANE, wallHeaders({ 'slow-offer': 'control' }))).toEqual({
      kind: 'refused',
      why: 'not_offered',
    });
    expect(activate(IDLE_LANE, unified({ status: 'rejected', reset: String(RESET_S) }))).toMatchObject({
      kind: 'refused',
    });
    expect(activate(IDLE_LANE, wallHeaders({ reset: String(NOW / 1000 - 1) }))).toEqual({
      kind: 'refused',
      why: 'no_future_reset',
    });
    const entry = activated(IDLE_LANE, wallHeaders());
    expect(entry.phase).toEqual({ kind: 'active', resetsAtSeconds: RESET_S, acceptedAtMs: NOW });
    expect(activate(entry, wallHeaders(), NOW + 1)).toEqual({ kind: 'refused', why: 'already_active' });
  });

  it('LOWP-5: without unified-reset the 5h-reset dates the lane', () => {
    const headers = { ...unified({ status: 'rejected', 'slow-offer': 'treatment', '5h-reset': String(RESET_S) }) };
    expect(activated(IDLE_LANE, headers).phase).toMatchObject({ resetsAtSeconds: RESET_S });
  });

  it('LOWP-5, LOWP-7, LOWP-8: the snapshot of a fresh lane shows its reset and the hinted 20 s / 20 min', () => {
    expect(snapshotLane(activeStore(), KEY, NOW)).toEqual({
      kind: 'active',
      acceptedAtMs: NOW,
      resetsAtMs: RESET_S * 1000,
      expiresAtMs: RESET_S * 1000 + 60_000,
      retryAfterMs: 20_000,
      maxWaitMs: 1_200_000,
      requestsServed: 0,
      requestsServedStandard: 0,
    });
  });

  it('LOWP-7, LOWP-8: hints are clamped: retry-after 1 s becomes 5 s, max-wait 999999 s becomes 6 h', () => {
    const entry = activated(IDLE_LANE, wallHeaders({ 'slow-retry-after': '1', 'slow-max-wait': '999999' }));
    expect(entry.retryAfterMs).toBe(5_000);
    expect(entry.maxWaitMs).toBe(21_600_000);
    const other = activated(IDLE_LANE, wallHeaders({ 'slow-retry-after': '9999', 'slow-max-wait': '1' }));
    expect([other.retryAfterMs, other.maxWaitMs]).toEqual([600_000, 60_000]);
  });

  it('LOWP-5: the lane lapses lazily one minute after the announced reset, dated at that instant', () => {
    const store = activeStore();
    const expiry = RESET_S * 1000 + 60_000;
    expect(shouldSendSlow(store, KEY, expiry - 1)).toBe(true);
    expect(shouldSendSlow(store, KEY, expiry)).toBe(false);
    expect(snapshotLane(store, KEY, expiry + 5_000)).toEqual({ kind: 'ended', reason: 'reset', atMs: expiry });
  });

  it('LOWP-11: budget_exhausted remembers the budget reset and refuses the offer until just after it', () => {
    const budgetReset = NOW / 1000 + 2 * 86_400;
    const ended = respond(
      activeStore(),
      {
        status: 429,
        headers: unified({ 'slow-status': 'budget_exhausted', 'slow-budget-reset': String(budgetReset) }),
      },
      NOW + 1_000,
    );
    expect(ended.decision).toEqual({ kind: 'ended', reason: 'budget' });
    const entry = getLaneEntry(ended.state, KEY);
    expect(entry.budgetSpentUntilSeconds).toBe(budgetReset);
    const laterWall = wallHeaders({ reset: String(budgetReset + 3_600) });
    expect(activate(entry, laterWall, budgetReset * 1000 - 1)).toEqual({ kind: 'refused', why: 'budget_spent' });
    expect(activate(entry, laterWall, budgetReset * 1000).kind).toBe('activated');
    expect(snapshotLane(putLaneEntry(EMPTY_LANE_STORE, KEY, entry), KEY, NOW + 2_000)).toMatchObject({
      kind: 'ended',
      reason: 'budget',
      budgetSpentUntilMs: budgetReset * 1000,
    });
  });

  it('LOWP-11: the budget memory falls back to the 7d reset and is capped at 8 days', () => {
    const far = respond(
      activeStore(),
      {
        status: 429,
        headers: unified({ 'slow-status': 'budget_exhausted', '7d-reset': String(NOW / 1000 + 30 * 86_400) }),
      },
      NOW,
    );
    expect(getLaneEntry(far.state, KEY).budgetSpentUntilSeconds).toBe(NOW / 1000 + 8 * 86_400);
    const silent = respond(
      activeStore(),
      { status: 429, headers: unified({ 'slow-status': 'budget_exhausted' }) },
      NOW,
    );
    expect(getLaneEntry(silent.state, KEY).budgetSpentUntilSeconds).toBeUndefined();
  });
});
