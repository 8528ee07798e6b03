import { describe, expect, it } from 'vitest';
import { DEFAULT_BREAKER_SETTINGS, resolveBreakerSettings, type BreakerProfileSettings } from './breaker-settings';
import { resetBreaker, type BreakerState } from './breaker-state';
import { recordFailure, recordSuccess } from './breaker-transitions';

const provider = { countsForBreaker: true };
const T0 = 1_700_000_000_000;

/** Records `n` provider failures one second apart starting at `from`. */
function fail(state: BreakerState, settings: BreakerProfileSettings, n: number, from = T0): BreakerState {
  let next = state;
  for (let i = 0; i < n; i++) next = recordFailure(next, settings, provider, from + i * 1_000);
  return next;
}

/** The kind after each of `n` failures from a fresh breaker. */
function kindsAlong(settings: BreakerProfileSettings, n: number): string[] {
  const kinds: string[] = [];
  let state = resetBreaker();
  for (let i = 0; i < n; i++) {
    state = recordFailure(state, settings, provider, T0 + i);
    kinds.push(state.kind);
  }
  return kinds;
}

describe('breaker transitions', () => {
  it('BRK-3 BRK-4: OAuth goes CLOSED → DEGRADED at 5 failures and OPEN at 8', () => {
    const kinds = kindsAlong(DEFAULT_BREAKER_SETTINGS.oauth, 8);
    expect(kinds.slice(0, 4)).toEqual(['CLOSED', 'CLOSED', 'CLOSED', 'CLOSED']);
    expect(kinds.slice(4, 7)).toEqual(['DEGRADED', 'DEGRADED', 'DEGRADED']);
    expect(kinds[7]).toBe('OPEN');
  });

  it('BRK-3 BRK-4: API key goes DEGRADED at 7 failures and OPEN at 12', () => {
    const kinds = kindsAlong(DEFAULT_BREAKER_SETTINGS.apikey, 12);
    expect(kinds[5]).toBe('CLOSED');
    expect(kinds[6]).toBe('DEGRADED');
    expect(kinds[10]).toBe('DEGRADED');
    expect(kinds[11]).toBe('OPEN');
  });

  it('BRK-3: local opens at 2 failures; its derived degradation threshold (ceil 60 % of 2 = 2) never shows first', () => {
    expect(kindsAlong(DEFAULT_BREAKER_SETTINGS.local, 2)).toEqual(['CLOSED', 'OPEN']);
    const local5 = resolveBreakerSettings('local', { failureThreshold: 5 });
    expect(kindsAlong(local5, 5)).toEqual(['CLOSED', 'CLOSED', 'DEGRADED', 'DEGRADED', 'OPEN']);
  });

  it('BRK-4: the open transition records when and why, with zero open cycles', () => {
    const open = fail(resetBreaker(), DEFAULT_BREAKER_SETTINGS.oauth, 8);
    expect(open).toMatchObject({ kind: 'OPEN', failureCount: 8, openedAt: T0 + 7_000, openCycles: 0 });
    expect(open.reason).toBe('8 provider failures reached the open threshold of 8');
  });

  it('BRK-2: failures the caller marks as not provider-level never count', () => {
    let state = resetBreaker();
    for (let i = 0; i < 20; i++)
      state = recordFailure(state, DEFAULT_BREAKER_SETTINGS.local, { countsForBreaker: false }, T0 + i);
    expect(state).toEqual(resetBreaker());
  });

  it('BRK-4: a success in CLOSED forgives one failure and never goes below zero', () => {
    const settings = DEFAULT_BREAKER_SETTINGS.oauth;
    const three = fail(resetBreaker(), settings, 3);
    expect(recordSuccess(three, settings, T0 + 10_000)).toMatchObject({ kind: 'CLOSED', failureCount: 2 });
    expect(recordSuccess(resetBreaker(), settings, T0)).toMatchObject({ kind: 'CLOSED', failureCount: 0 });
  });

  it('BRK-4: DEGRADED decrements per success and closes once the count is at or below the degradation threshold', () => {
    const settings = DEFAULT_BREAKER_SETTINGS.oauth;
    const seven = fail(resetBreaker(), settings, 7);
    expect(seven).toMatchObject({ kind: 'DEGRADED', failureCount: 7 });
    const six = recordSuccess(seven, settings, T0 + 10_000);
    expect(six).toMatchObject({ kind: 'DEGRADED', failureCount: 6 });
    const five = recordSuccess(six, settings, T0 + 11_000);
    expect(five).toMatchObject({ kind: 'CLOSED', failureCount: 5 });
    expect(five.reason).toBe('failures fell to 5, at or below the degradation threshold of 5');
  });

  it('BRK-6: failures while OPEN change nothing, so the open window is not extended', () => {
    const settings = DEFAULT_BREAKER_SETTINGS.oauth;
    const open = fail(resetBreaker(), settings, 8);
    const later = fail(open, settings, 30, T0 + 10_000);
    expect(later).toEqual(open);
  });

  it('BRK-4: a failure once the window has passed is a failed probe: OPEN again with open cycle 1', () => {
    const settings = DEFAULT_BREAKER_SETTINGS.apikey;
    const open = fail(resetBreaker(), settings, 12);
    const openedAt = T0 + 11_000;
    const reopened = recordFailure(open, settings, { countsForBreaker: true, probe: true }, openedAt + 30_000);
    expect(reopened).toMatchObject({ kind: 'OPEN', openCycles: 1, openedAt: openedAt + 30_000, failureCount: 13 });
    expect(reopened.reason).toBe('probe failed (open cycle 1); blocking for 30000 ms');
  });

  it('BRK-4: a success in HALF_OPEN closes with every counter reset, open cycles included', () => {
    const settings = DEFAULT_BREAKER_SETTINGS.apikey;
    const reopened = recordFailure(fail(resetBreaker(), settings, 12), settings, provider, T0 + 41_000);
    const closed = recordSuccess(reopened, settings, T0 + 71_000);
    expect(closed).toMatchObject({ kind: 'CLOSED', failureCount: 0, lastFailureAt: null });
    expect(closed.reason).toBe('probe succeeded; provider recovered');
  });

  it('BRK-4: a success while still OPEN (a request admitted before the trip) closes the breaker', () => {
    const settings = DEFAULT_BREAKER_SETTINGS.oauth;
    const open = fail(resetBreaker(), settings, 8);
    expect(recordSuccess(open, settings, T0 + 8_000)).toMatchObject({ kind: 'CLOSED', failureCount: 0 });
  });
});
