import { describe, expect, it } from 'vitest';
import { laneWaitDeadline } from './lane-constants';
import { snapshotLane } from './lane-snapshot';
import type { LaneDecision } from './lane-state';
import { getLaneEntry, shouldSendSlow, type LaneStore } from './lane-store';
import { activeStore, KEY, NOW, RESET_S, respond, unified, wallHeaders } from './lane.testkit';

const slotBusy = { status: 429, headers: unified({ 'slow-status': 'slot_busy' }) };
const one = (): number => 1;
const ended = (reason: string): LaneDecision => ({ kind: 'ended', reason }) as LaneDecision;

describe('TEST-6 claude-low-priority-mode', () => {
  it('LOWP-7: while active, 200s with slow-status active and not_needed keep the lane and are counted', () => {
    const first = respond(activeStore(), { status: 200, headers: unified({ 'slow-status': 'active' }) }, NOW + 1);
    const second = respond(first.state, { status: 200, headers: unified({ 'slow-status': 'not_needed' }) }, NOW + 2);
    expect([first.decision, second.decision]).toEqual([{ kind: 'none' }, { kind: 'none' }]);
    expect(getLaneEntry(second.state, KEY)).toMatchObject({ requestsServed: 1, requestsServedStandard: 1 });
    expect(shouldSendSlow(second.state, KEY, NOW + 3)).toBe(true);
  });

  it('LOWP-7, LOWP-8: slot_busy waits with jitter, extends the episode, then ends max_wait and cools off 10 min', () => {
    const first = respond(activeStore(), slotBusy, NOW);
    expect(first.decision).toEqual({ kind: 'retry', delayMs: 20_000, via: 'slot-busy' });
    const second = respond(first.state, slotBusy, NOW + 20_000, one);
    expect(second.decision).toEqual({ kind: 'retry', delayMs: 26_000, via: 'slot-busy' });
    expect(snapshotLane(second.state, KEY, NOW + 20_000)).toMatchObject({
      kind: 'waiting',
      attempts: 2,
      waitingSinceMs: NOW,
      nextTryAtMs: NOW + 46_000,
    });
    const gaveUp = respond(second.state, slotBusy, NOW + 1_200_000);
    expect(gaveUp.decision).toEqual(ended('max_wait'));
    expect(shouldSendSlow(gaveUp.state, KEY, NOW + 1_200_000)).toBe(false);
    const wall = { status: 429, headers: wallHeaders(), sentSlow: false };
    expect(respond(gaveUp.state, wall, NOW + 1_201_000).decision).toEqual({ kind: 'none' });
    expect(snapshotLane(gaveUp.state, KEY, NOW + 1_201_000)).toMatchObject({
      kind: 'ended',
      reason: 'max_wait',
      coolingOffUntilMs: NOW + 1_800_000,
    });
    const back = respond(gaveUp.state, wall, NOW + 1_800_000);
    expect(back.decision).toEqual({ kind: 'retry', delayMs: 0, via: 'low-priority-accepted' });
  });

  it('LOWP-7: jitter stays within ±30 % and a served request clears the wait episode', () => {
    const low = respond(activeStore(), slotBusy, NOW, () => 0);
    expect(low.decision).toMatchObject({ delayMs: 14_000 });
    const served = respond(low.state, { status: 200, headers: unified({ 'slow-status': 'active' }) }, NOW + 14_000);
    expect(getLaneEntry(served.state, KEY).wait).toBeNull();
  });

  it('LOWP-7: a 529 while active waits the retry-after as capacity-busy', () => {
    const out = respond(activeStore(), { status: 529, headers: {} }, NOW + 1);
    expect(out.decision).toEqual({ kind: 'retry', delayMs: 20_000, via: 'capacity-busy' });
    const hinted = respond(
      activeStore(),
      { status: 529, headers: unified({ 'slow-status': 'active', 'slow-retry-after': '40' }) },
      NOW,
    );
    expect(hinted.decision).toEqual({ kind: 'retry', delayMs: 40_000, via: 'capacity-busy' });
  });

  it('LOWP-10: 429s with weekly_limit, budget_exhausted, off and ineligible end the lane with their reason', () => {
    const statuses = ['weekly_limit', 'budget_exhausted', 'off', 'ineligible'];
    const decisions = statuses.map(
      (status) =>
        respond(activeStore(), { status: 429, headers: unified({ 'slow-status': status }) }, NOW + 1).decision,
    );
    expect(decisions).toEqual(['weekly', 'budget', 'off', 'ineligible'].map(ended));
  });

  it('LOWP-10: ineligible with overage in use ends as extra_usage on a 429 and on a 200; without it, ineligible', () => {
    const at = (status: number, extra: Record<string, string>) =>
      respond(activeStore(), { status, headers: unified({ 'slow-status': 'ineligible', ...extra }) }, NOW + 1).decision;
    expect(at(429, { 'overage-in-use': 'true' })).toEqual(ended('extra_usage'));
    expect(at(429, { 'overage-in-use': 'false' })).toEqual(ended('ineligible'));
    expect(at(429, {})).toEqual(ended('ineligible'));
    expect(at(200, { 'overage-in-use': 'true' })).toEqual(ended('extra_usage'));
  });

  it('LOWP-9: the wait is cut to the request deadline, ends max_wait at it, and is untouched without one', () => {
    const cut = respond(activeStore(), { ...slotBusy, waitDeadlineMs: NOW + 8_000 }, NOW);
    expect(cut.decision).toEqual({ kind: 'retry', delayMs: 8_000, via: 'slot-busy' });
    const atDeadline = respond(cut.state, { ...slotBusy, waitDeadlineMs: NOW + 8_000 }, NOW + 8_000);
    expect(atDeadline.decision).toEqual(ended('max_wait'));
    const zero = respond(activeStore(), { ...slotBusy, waitDeadlineMs: NOW }, NOW);
    expect(zero.decision).toEqual(ended('max_wait'));
    expect(respond(activeStore(), slotBusy, NOW).decision).toMatchObject({ delayMs: 20_000 });
  });

  it('LOWP-9: with defaults (20 min max-wait, 10 min fetch-start timeout) the request ends max_wait before its timeout', () => {
    const deadline = laneWaitDeadline(NOW, 600_000);
    expect(deadline).toBe(NOW + 595_000);
    expect(laneWaitDeadline(NOW, 0)).toBeUndefined();
    let state: LaneStore = activeStore();
    let now = NOW;
    let decision: LaneDecision = { kind: 'none' };
    for (let i = 0; i < 100; i++) {
      ({ state, decision } = respond(state, { ...slotBusy, waitDeadlineMs: deadline }, now, one));
      if (decision.kind !== 'retry') break;
      now += decision.delayMs;
    }
    expect(decision).toEqual(ended('max_wait'));
    expect(now).toBe(NOW + 595_000);
    expect(now).toBeLessThan(NOW + 600_000);
    expect(getLaneEntry(state, KEY).coolingOffUntilMs).toBe(now + 600_000);
  });

  it('LOWP-10: a 429 naming the blamed window ends the lane as wall; a bare 429 leaves it running', () => {
    const wall = respond(
      activeStore(),
      { status: 429, headers: unified({ status: 'rejected', 'representative-claim': 'seven_day' }) },
      NOW + 1,
    );
    expect(wall.decision).toEqual(ended('wall'));
    const store = activeStore();
    const bare = respond(store, { status: 429, headers: { 'retry-after': '2' } }, NOW + 1);
    expect(bare).toEqual({ state: store, decision: { kind: 'none' } });
  });

  it('LOWP-10: a 200 whose 5h-reset is a minute past the accepted reset is a rollover and ends the lane', () => {
    const rolled = respond(
      activeStore(),
      { status: 200, headers: unified({ '5h-reset': String(RESET_S + 60) }) },
      NOW + 1,
    );
    expect(rolled.decision).toEqual(ended('reset'));
    expect(shouldSendSlow(rolled.state, KEY, NOW + 2)).toBe(false);
    const close = respond(
      activeStore(),
      { status: 200, headers: unified({ '5h-reset': String(RESET_S + 59) }) },
      NOW + 1,
    );
    expect(close.decision).toEqual({ kind: 'none' });
  });

  it('LOWP-10: a lane-ending slow status ends the lane on a 200 too', () => {
    const out = respond(activeStore(), { status: 200, headers: unified({ 'slow-status': 'off' }) }, NOW + 1);
    expect(out.decision).toEqual(ended('off'));
  });
});
