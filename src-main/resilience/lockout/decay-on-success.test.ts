import { describe, expect, it } from 'vitest';
import { decayOnSuccess } from './decay-on-success';
import { ENABLED, modelFailure, PROVIDER, T0 } from './lockout-fixtures.testkit';
import { isModelLocked, NO_LOCKOUTS, type ModelLockouts } from './model-lockouts';
import { recordModelFailure } from './record-model-failure';

/** A lock on model-a with the given failure count, built by failing right after each lock ends. */
function lockedWithCount(count: number, status = 429): { state: ModelLockouts; now: number } {
  let state: ModelLockouts = NO_LOCKOUTS;
  let now = T0;
  for (let i = 0; i < count; i++) {
    const out = recordModelFailure(state, modelFailure({ status }), ENABLED, now);
    state = out.state;
    if (out.decision.kind === 'locked' && i < count - 1) now = out.decision.until;
  }
  return { state, now };
}

describe('decayOnSuccess', () => {
  it('LOCK-12: a count of 4 halves to 2 and the lock stays', () => {
    const { state, now } = lockedWithCount(4);
    const out = decayOnSuccess(state, PROVIDER, 'c1', 'model-a');
    expect(out).toMatchObject({ cleared: false, failureCount: 2 });
    expect(isModelLocked(out.state, PROVIDER, 'c1', 'model-a', now)).not.toBeNull();
  });

  it('LOCK-12: a count of 1 reaches 0, the entry is deleted and the model is routable', () => {
    const { state, now } = lockedWithCount(1);
    const out = decayOnSuccess(state, PROVIDER, 'c1', 'model-a');
    expect(out).toEqual({ state: {}, cleared: true, failureCount: 0 });
    expect(isModelLocked(out.state, PROVIDER, 'c1', 'model-a', now)).toBeNull();
  });

  it('LOCK-12: 3 decays to 1, then to 0 and cleared', () => {
    const first = decayOnSuccess(lockedWithCount(3).state, PROVIDER, 'c1', 'model-a');
    expect(first).toMatchObject({ cleared: false, failureCount: 1 });
    expect(decayOnSuccess(first.state, PROVIDER, 'c1', 'model-a')).toMatchObject({ cleared: true, failureCount: 0 });
  });

  it('LOCK-12: with no entry nothing changes and nothing is reported cleared', () => {
    const out = decayOnSuccess(NO_LOCKOUTS, PROVIDER, 'c1', 'model-a');
    expect(out).toEqual({ state: NO_LOCKOUTS, cleared: false, failureCount: 0 });
  });

  it('LOCK-12: decay reaches exact locks too', () => {
    const { state } = lockedWithCount(2, 502);
    expect(decayOnSuccess(state, PROVIDER, 'c1', 'MODEL-A')).toMatchObject({ cleared: false, failureCount: 1 });
  });
});
