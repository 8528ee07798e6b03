import { describe, expect, it } from 'vitest';
import { clearAllLockouts, clearLockout, pruneLockouts } from './clear-lockouts';
import { ENABLED, modelFailure, PROVIDER, T0 } from './lockout-fixtures.testkit';
import { isModelLocked, listLockouts, NO_LOCKOUTS, type ModelLockouts } from './model-lockouts';
import { recordModelFailure, type ModelFailure } from './record-model-failure';

function record(state: ModelLockouts, failure: ModelFailure, now = T0): ModelLockouts {
  return recordModelFailure(state, failure, ENABLED, now).state;
}

const sample = (): ModelLockouts =>
  record(
    record(
      record(NO_LOCKOUTS, modelFailure()),
      modelFailure({
        model: 'model-b',
        status: 503,
        reason: 'server_error',
        cooldownHintMs: 600_000,
        hintSource: 'header',
      }),
    ),
    modelFailure({ connectionId: 'c2' }),
    T0 - 200_000,
  );

describe('model lockout state', () => {
  it('LOCK-6, LOCK-7: listLockouts shows active locks with provider, connection, model, reason, expiresAt and failureCount, longest first', () => {
    expect(listLockouts(sample(), T0)).toEqual([
      {
        key: `${PROVIDER}:c1:exact:model-b`,
        provider: PROVIDER,
        connectionId: 'c1',
        model: 'model-b',
        kind: 'exact',
        reason: 'server_error',
        lockedAt: T0,
        expiresAt: T0 + 600_000,
        remainingMs: 600_000,
        failureCount: 1,
      },
      {
        key: `${PROVIDER}:c1:model-a`,
        provider: PROVIDER,
        connectionId: 'c1',
        model: 'model-a',
        kind: 'quota_family',
        reason: 'rate_limit',
        lockedAt: T0,
        expiresAt: T0 + 120_000,
        remainingMs: 120_000,
        failureCount: 1,
      },
    ]);
  });

  it('LOCK-6, LOCK-8: clearLockout re-enables one key shape and leaves the others locked', () => {
    const state = record(sample(), modelFailure({ status: 502 }));
    const byKey = clearLockout(state, `${PROVIDER}:c1:model-a`);
    expect(isModelLocked(byKey, PROVIDER, 'c1', 'model-a', T0)).toMatchObject({ key: `${PROVIDER}:c1:exact:model-a` });
    expect(clearLockout(state, 'toString')).toBe(state);
  });

  it('LOCK-6: clearAllLockouts empties the state', () => {
    expect(listLockouts(clearAllLockouts(sample()), T0)).toEqual([]);
  });

  it('LOCK-13: pruning keeps failure memory through the escalation window and drops it after', () => {
    const state = record(NO_LOCKOUTS, modelFailure());
    expect(pruneLockouts(state, T0 + 120_000 + 1_800_000)).toBe(state);
    expect(pruneLockouts(state, T0 + 120_000 + 1_800_001)).toEqual({});
  });

  it('LOCK-13: the state is plain data that survives a JSON round trip for snapshots', () => {
    const state = sample();
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  });
});
