import { describe, expect, it } from 'vitest';
import { canExecute, statusOf, type BreakerDecision } from './breaker-gate';
import { DEFAULT_BREAKER_SETTINGS, resolveBreakerSettings } from './breaker-settings';
import { resetBreaker, type BreakerState } from './breaker-state';
import { effectiveResetMs } from './breaker-timing';
import { recordFailure, recordSuccess, releaseProbe } from './breaker-transitions';

const oauth = DEFAULT_BREAKER_SETTINGS.oauth;
const T0 = 1_700_000_000_000;

/** An OAuth breaker opened at T0 by eight provider failures. */
function openedAtT0(): BreakerState {
  let state = resetBreaker();
  for (let i = 7; i >= 0; i--) state = recordFailure(state, oauth, { countsForBreaker: true }, T0 - i);
  return state;
}

/** Fails `cycles` probes in a row, each right when the (escalating) window ends; returns the last open time. */
function failProbes(state: BreakerState, cycles: number, openedAt: number): { state: BreakerState; openedAt: number } {
  let current = { state, openedAt };
  for (let cycle = 0; cycle < cycles; cycle++) {
    const at = current.openedAt + effectiveResetMs(oauth, cycle);
    current = { state: recordFailure(current.state, oauth, { countsForBreaker: true, probe: true }, at), openedAt: at };
  }
  return current;
}

function refused(decision: BreakerDecision): Extract<BreakerDecision, { allowed: false }> {
  if (decision.allowed) throw new Error('expected the breaker to refuse');
  return decision;
}

describe('breaker gate', () => {
  it('BRK-1: CLOSED and DEGRADED admit requests without probing', () => {
    expect(canExecute(resetBreaker(), oauth, T0)).toMatchObject({ allowed: true, probe: false });
    let degraded = resetBreaker();
    for (let i = 0; i < 5; i++) degraded = recordFailure(degraded, oauth, { countsForBreaker: true }, T0 + i);
    expect(canExecute(degraded, oauth, T0 + 10)).toMatchObject({ allowed: true, probe: false });
  });

  it('BRK-1 BRK-8: OPEN refuses with circuit_open and the time left in the window', () => {
    const decision = refused(canExecute(openedAtT0(), oauth, T0 + 20_000));
    expect(decision).toMatchObject({ reason: 'circuit_open', retryAfterMs: 40_000 });
    expect(decision.detail).toBe('circuit open: 8 provider failures reached the open threshold of 8');
  });

  it('BRK-6: lazy recovery moves OPEN → HALF_OPEN exactly at the reset time and not 1 ms before', () => {
    const open = openedAtT0();
    expect(statusOf(open, oauth, T0 + 59_999)).toMatchObject({ kind: 'OPEN', retryAfterMs: 1 });
    expect(canExecute(open, oauth, T0 + 59_999).allowed).toBe(false);
    expect(statusOf(open, oauth, T0 + 60_000)).toMatchObject({ kind: 'HALF_OPEN', retryAfterMs: null });
    expect(canExecute(open, oauth, T0 + 60_000)).toMatchObject({ allowed: true, probe: true });
  });

  it('BRK-1: HALF_OPEN admits one probe; concurrent callers after it are refused until it reports', () => {
    const first = canExecute(openedAtT0(), oauth, T0 + 60_000);
    expect(first).toMatchObject({ allowed: true, probe: true });
    const second = refused(canExecute(first.state, oauth, T0 + 60_001));
    const third = refused(canExecute(second.state, oauth, T0 + 60_002));
    expect(third.detail).toBe('circuit half-open: 1 probe(s) already in flight');
    expect(third.retryAfterMs).toBe(59_998);
    expect(statusOf(third.state, oauth, T0 + 60_002)).toMatchObject({ kind: 'HALF_OPEN', probesInFlight: 1 });
    expect(recordSuccess(third.state, oauth, T0 + 61_000).kind).toBe('CLOSED');
  });

  it('BRK-1: with halfOpenProbes 2, exactly two of three concurrent callers probe', () => {
    const settings = resolveBreakerSettings('oauth', { halfOpenProbes: 2 });
    let state = openedAtT0();
    const admitted: boolean[] = [];
    for (let i = 0; i < 3; i++) {
      const decision = canExecute(state, settings, T0 + 60_000 + i);
      admitted.push(decision.allowed);
      state = decision.state;
    }
    expect(admitted).toEqual([true, true, false]);
  });

  it('BRK-6: a probe that reports a neutral outcome or never reports gives its permit back', () => {
    const probing = canExecute(openedAtT0(), oauth, T0 + 60_000).state;
    const released = releaseProbe(probing, oauth, T0 + 61_000);
    expect(canExecute(released, oauth, T0 + 61_001)).toMatchObject({ allowed: true, probe: true });
    const neutral = recordFailure(probing, oauth, { countsForBreaker: false, probe: true }, T0 + 61_000);
    expect(canExecute(neutral, oauth, T0 + 61_001).allowed).toBe(true);
    expect(canExecute(probing, oauth, T0 + 119_999).allowed).toBe(false);
    expect(canExecute(probing, oauth, T0 + 120_000)).toMatchObject({ allowed: true, probe: true });
  });

  it('BRK-4: a failed probe reopens for a fresh window and counts an open cycle', () => {
    const { state, openedAt } = failProbes(openedAtT0(), 1, T0);
    expect(statusOf(state, oauth, openedAt)).toMatchObject({ kind: 'OPEN', openCycles: 1, retryAfterMs: 60_000 });
  });

  it('BRK-5: OAuth keeps 60 s for 2 failed cycles, then doubles per extra cycle up to ×8 (480 s)', () => {
    const windows = [0, 1, 2, 3, 4, 5, 6, 9].map((cycles) => effectiveResetMs(oauth, cycles));
    expect(windows).toEqual([60_000, 60_000, 60_000, 120_000, 240_000, 480_000, 480_000, 480_000]);
    const { state, openedAt } = failProbes(openedAtT0(), 4, T0);
    expect(statusOf(state, oauth, openedAt)).toMatchObject({ kind: 'OPEN', openCycles: 4, retryAfterMs: 240_000 });
    expect(statusOf(state, oauth, openedAt + 239_999).kind).toBe('OPEN');
    expect(statusOf(state, oauth, openedAt + 240_000).kind).toBe('HALF_OPEN');
  });

  it('BRK-5: API key keeps 30 s for 3 failed cycles, then doubles up to ×4 (120 s)', () => {
    const apikey = DEFAULT_BREAKER_SETTINGS.apikey;
    const windows = [3, 4, 5, 6, 10].map((cycles) => effectiveResetMs(apikey, cycles));
    expect(windows).toEqual([30_000, 60_000, 120_000, 120_000, 120_000]);
  });

  it('BRK-6: failures while OPEN do not push back the moment it turns HALF_OPEN', () => {
    let state = openedAtT0();
    for (let t = T0 + 1_000; t < T0 + 60_000; t += 5_000)
      state = recordFailure(state, oauth, { countsForBreaker: true }, t);
    expect(statusOf(state, oauth, T0 + 60_000)).toMatchObject({ kind: 'HALF_OPEN', failureCount: 8 });
  });

  it('BRK-8: statusOf reports kind, failure count, retry-after and open cycles without admitting anything', () => {
    const open = openedAtT0();
    expect(statusOf(resetBreaker(), oauth, T0)).toMatchObject({
      kind: 'CLOSED',
      failureCount: 0,
      retryAfterMs: null,
      openCycles: 0,
    });
    expect(statusOf(open, oauth, T0 + 15_000)).toMatchObject({
      kind: 'OPEN',
      failureCount: 8,
      retryAfterMs: 45_000,
      lastFailureAt: T0,
    });
    const halfOpen = canExecute(open, oauth, T0 + 60_000).state;
    expect(statusOf(halfOpen, oauth, T0 + 60_000)).toMatchObject({ probesInFlight: 1, retryAfterMs: 60_000 });
  });

  it('BRK-6: a start time in the future (clock moved back) counts as elapsed instead of blocking forever', () => {
    expect(statusOf(openedAtT0(), oauth, T0 - 3_600_000).kind).toBe('HALF_OPEN');
  });
});
