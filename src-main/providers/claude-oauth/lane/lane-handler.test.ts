import { describe, expect, it, vi } from 'vitest';
import { parseUnifiedHeaders } from './unified-headers';
import { applyClaimOutcome, planWallResponse, settleClaim, type ClaimOutcome } from './lane-handler';
import { EMPTY_LANE_STORE, getLaneEntry, shouldSendSlow } from './lane-store';
import { activeStore, half, KEY, LOW_ONLY, NOW, OPTED_OUT, respond, unified, wallHeaders } from './lane.testkit';

const BOTH = { lowPriorityMode: true, autoLimitReset: true };
const wall429 = { status: 429, headers: wallHeaders(), sentSlow: false };
const ACCEPTED = { kind: 'retry', delayMs: 0, via: 'low-priority-accepted' };

describe('TEST-6 claude-low-priority-mode', () => {
  it('LOWP-4, LOWP-6: an idle wall 429 with the opt-in is accepted at once and the lane turns active', () => {
    const out = respond(EMPTY_LANE_STORE, wall429, NOW);
    expect(out.decision).toEqual(ACCEPTED);
    expect(shouldSendSlow(out.state, KEY, NOW)).toBe(true);
  });

  it('LOWP-1, LOWP-3: without the opt-in, or on a 429 with only retry-after, nothing is intercepted', () => {
    const optedOut = respond(EMPTY_LANE_STORE, wall429, NOW, half, { optIns: OPTED_OUT });
    expect(optedOut).toEqual({ state: EMPTY_LANE_STORE, decision: { kind: 'none' } });
    const bare = respond(EMPTY_LANE_STORE, { status: 429, headers: { 'retry-after': '3' }, sentSlow: false }, NOW);
    expect(bare.decision).toEqual({ kind: 'none' });
    expect(shouldSendSlow(bare.state, KEY, NOW)).toBe(false);
  });

  it('RESET-2, RESET-6: with both opt-ins a granted claim is tried first, once, and retries at full speed', () => {
    const claim = vi.fn((): ClaimOutcome => ({ reset: true }));
    const out = respond(EMPTY_LANE_STORE, wall429, NOW, half, { optIns: BOTH, claim });
    expect(claim).toHaveBeenCalledTimes(1);
    expect(out.decision).toEqual({ kind: 'retry', delayMs: 0, via: 'limit-reset' });
    expect(shouldSendSlow(out.state, KEY, NOW)).toBe(false);
  });

  it('RESET-9: a failed or throwing claim falls back to the lane', () => {
    const failed = respond(EMPTY_LANE_STORE, wall429, NOW, half, { optIns: BOTH, claim: () => ({ reset: false }) });
    expect(failed.decision).toEqual(ACCEPTED);
    const thrown = respond(EMPTY_LANE_STORE, wall429, NOW, half, {
      optIns: BOTH,
      claim: () => {
        throw new Error('network down');
      },
    });
    expect(thrown.decision).toEqual(ACCEPTED);
    expect(shouldSendSlow(thrown.state, KEY, NOW)).toBe(true);
  });

  it('RESET-2: a wall blaming seven_day never tries the claim', () => {
    const claim = vi.fn((): ClaimOutcome => ({ reset: true }));
    const headers = wallHeaders({ 'representative-claim': 'seven_day' });
    const out = respond(EMPTY_LANE_STORE, { ...wall429, headers }, NOW, half, { optIns: BOTH, claim });
    expect(claim).not.toHaveBeenCalled();
    expect(out.decision).toEqual(ACCEPTED);
  });

  it('RESET-9: with only autoLimitReset on, a failed claim leaves the 429 to cooldown', () => {
    const optIns = { lowPriorityMode: false, autoLimitReset: true };
    const out = respond(EMPTY_LANE_STORE, wall429, NOW, half, { optIns, claim: () => ({ reset: false }) });
    expect(out.decision).toEqual({ kind: 'none' });
    expect(shouldSendSlow(out.state, KEY, NOW)).toBe(false);
  });

  it('RESET-2, LOWP-4: the async split plans the claim, and applying a failure after a sibling opened the lane re-joins it', async () => {
    const input = { key: KEY, status: 429, sentSlow: false, unified: parseUnifiedHeaders(wall429.headers) };
    const plan = planWallResponse(EMPTY_LANE_STORE, input, BOTH, NOW, half);
    expect(plan.kind).toBe('claim');
    if (plan.kind !== 'claim') return;
    const outcome = await settleClaim(() => Promise.reject(new Error('timeout')));
    expect(outcome).toEqual({ reset: false });
    const meanwhile = activeStore(NOW + 100, KEY, plan.state);
    const out = applyClaimOutcome(meanwhile, plan.pending, outcome, NOW + 200);
    expect(out.decision).toEqual(ACCEPTED);
    expect(getLaneEntry(out.state, KEY).phase).toMatchObject({ acceptedAtMs: NOW + 100 });
  });

  it('LOWP-4: a sibling built before activation re-joins on its wall 429; a header-less 200 is not lane telemetry', () => {
    const store = activeStore();
    const rejoined = respond(store, wall429, NOW + 500);
    expect(rejoined).toEqual({ state: store, decision: ACCEPTED });
    const ignored = respond(
      store,
      { status: 200, headers: unified({ 'slow-status': 'active' }), sentSlow: false },
      NOW + 600,
    );
    expect(ignored.decision).toEqual({ kind: 'none' });
    expect(getLaneEntry(ignored.state, KEY).requestsServed).toBe(0);
  });

  it('LOWP-10: the same wall 429 on a request that went out slow ends the lane as wall', () => {
    const out = respond(activeStore(), { ...wall429, sentSlow: true }, NOW + 500);
    expect(out.decision).toEqual({ kind: 'ended', reason: 'wall' });
    expect(shouldSendSlow(out.state, KEY, NOW + 501)).toBe(false);
  });

  it('LOWP-13: state is per connection, and a restart (empty store) needs one more wall', () => {
    const store = activeStore(NOW, 'conn-a');
    expect(shouldSendSlow(store, 'conn-b', NOW)).toBe(false);
    const other = respond(store, { ...wall429, key: 'conn-b' }, NOW + 10, half, { optIns: LOW_ONLY });
    expect(other.decision).toEqual(ACCEPTED);
    expect(getLaneEntry(other.state, 'conn-b').phase).toMatchObject({ acceptedAtMs: NOW + 10 });
    expect(getLaneEntry(other.state, 'conn-a').phase).toMatchObject({ acceptedAtMs: NOW });
    expect(shouldSendSlow(EMPTY_LANE_STORE, 'conn-a', NOW)).toBe(false);
  });
});
