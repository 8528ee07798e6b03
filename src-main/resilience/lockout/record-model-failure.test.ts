import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_LOCKOUT_SETTINGS, type ModelLockoutSettings } from './lockout-settings';
import { ENABLED, modelFailure, PROVIDER, T0 } from './lockout-fixtures.testkit';
import { isModelLocked, NO_LOCKOUTS, type ModelLockouts } from './model-lockouts';
import { recordModelFailure, type ModelFailure } from './record-model-failure';

/** Fails the same model again the moment each lock ends; returns lock lengths and counts. */
function escalate(count: number, settings: ModelLockoutSettings, failure: ModelFailure = modelFailure()) {
  let state: ModelLockouts = NO_LOCKOUTS;
  let now = T0;
  const lengths: number[] = [];
  const counts: number[] = [];
  for (let i = 0; i < count; i++) {
    const out = recordModelFailure(state, failure, settings, now);
    if (out.decision.kind !== 'locked') throw new Error(`expected a lock, got ${out.decision.kind}`);
    lengths.push(out.decision.cooldownMs);
    counts.push(out.decision.failureCount);
    state = out.state;
    now = out.decision.until;
  }
  return { lengths, counts, state, now };
}

describe('recordModelFailure', () => {
  it('LOCK-9: with default settings (disabled) no lockout is recorded', () => {
    const out = recordModelFailure(NO_LOCKOUTS, modelFailure(), DEFAULT_MODEL_LOCKOUT_SETTINGS, T0);
    expect(out.state).toBe(NO_LOCKOUTS);
    expect(out.decision).toEqual({ kind: 'skipped', reason: 'Model lockout is turned off' });
  });

  it('LOCK-9: a status outside errorCodes is not recorded; bypassSettingsGate locks anyway', () => {
    expect(recordModelFailure(NO_LOCKOUTS, modelFailure({ status: 500 }), ENABLED, T0).decision.kind).toBe('skipped');
    const forced = recordModelFailure(
      NO_LOCKOUTS,
      modelFailure({ status: 500, bypassSettingsGate: true }),
      DEFAULT_MODEL_LOCKOUT_SETTINGS,
      T0,
    );
    expect(forced.decision).toMatchObject({ kind: 'locked', lock: 'exact', cooldownMs: 120_000 });
  });

  it('LOCK-1, LOCK-2: a 429 locks the model on that connection for baseCooldownMs', () => {
    const out = recordModelFailure(NO_LOCKOUTS, modelFailure(), ENABLED, T0);
    expect(out.decision).toMatchObject({
      kind: 'locked',
      key: `${PROVIDER}:c1:model-a`,
      lock: 'quota_family',
      until: T0 + 120_000,
      failureCount: 1,
    });
    expect(out.decision.kind === 'locked' && out.decision.reason).toBe(
      'rate_limit (HTTP 429): the quota family of model-a locked for 2 min, failure 1',
    );
    expect(isModelLocked(out.state, PROVIDER, 'c1', 'model-a', T0)).toEqual({
      key: `${PROVIDER}:c1:model-a`,
      expiresAt: T0 + 120_000,
      reason: 'rate_limit',
    });
    expect(isModelLocked(out.state, PROVIDER, 'c2', 'model-a', T0)).toBeNull();
  });

  it('LOCK-4: one failure on model A does not lock model B of the same connection', () => {
    for (const status of [502, 429]) {
      const out = recordModelFailure(NO_LOCKOUTS, modelFailure({ status, reason: 'quality_failure' }), ENABLED, T0);
      expect(isModelLocked(out.state, PROVIDER, 'c1', 'model-a', T0)).not.toBeNull();
      expect(isModelLocked(out.state, PROVIDER, 'c1', 'model-b', T0)).toBeNull();
    }
  });

  it('LOCK-3, LOCK-4: a 404 locks the bare model key, a 502 the exact key', () => {
    expect(recordModelFailure(NO_LOCKOUTS, modelFailure({ status: 404 }), ENABLED, T0).decision).toMatchObject({
      key: `${PROVIDER}:c1:model-a`,
      lock: 'model',
    });
    expect(
      recordModelFailure(NO_LOCKOUTS, modelFailure({ status: 502, model: 'Model-A' }), ENABLED, T0).decision,
    ).toMatchObject({ key: `${PROVIDER}:c1:exact:model-a`, lock: 'exact' });
  });

  it('LOCK-5: an explicit scope wins over the status', () => {
    expect(
      recordModelFailure(NO_LOCKOUTS, modelFailure({ status: 429, scope: 'exact' }), ENABLED, T0).decision,
    ).toMatchObject({ lock: 'exact' });
    expect(
      recordModelFailure(NO_LOCKOUTS, modelFailure({ status: 502, scope: 'quota_family' }), ENABLED, T0).decision,
    ).toMatchObject({ lock: 'quota_family' });
  });

  it('LOCK-11: failures right after each lock escalate 2, 4, 8, 16 min and stop at maxCooldownMs', () => {
    const { lengths, counts } = escalate(6, ENABLED);
    expect(lengths).toEqual([120_000, 240_000, 480_000, 960_000, 1_800_000, 1_800_000]);
    expect(counts).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('LOCK-11: escalation never takes more than maxBackoffSteps steps', () => {
    const settings = { ...ENABLED, maxBackoffSteps: 2, maxCooldownMs: 3_600_000 };
    expect(escalate(5, settings).lengths).toEqual([120_000, 240_000, 480_000, 480_000, 480_000]);
  });

  it('LOCK-9: with useExponentialBackoff off every lock is baseCooldownMs', () => {
    expect(escalate(3, { ...ENABLED, useExponentialBackoff: false }).lengths).toEqual([120_000, 120_000, 120_000]);
  });

  it('LOCK-11: a failure more than 30 min after the lock ended starts again at failure 1', () => {
    const { state, now } = escalate(2, ENABLED);
    expect(recordModelFailure(state, modelFailure(), ENABLED, now + 1_800_000).decision).toMatchObject({
      failureCount: 3,
    });
    expect(recordModelFailure(state, modelFailure(), ENABLED, now + 1_800_001).decision).toMatchObject({
      failureCount: 1,
      cooldownMs: 120_000,
    });
  });

  it('LOCK-11, COOL-6: failures arriving while the model is locked are absorbed and do not escalate', () => {
    let state = recordModelFailure(NO_LOCKOUTS, modelFailure(), ENABLED, T0).state;
    for (let i = 1; i <= 5; i++) {
      const out = recordModelFailure(state, modelFailure(), ENABLED, T0 + i * 10);
      expect(out.decision.kind).toBe('absorbed');
      expect(out.state).toBe(state);
      state = out.state;
    }
    expect(recordModelFailure(state, modelFailure(), ENABLED, T0 + 120_000).decision).toMatchObject({
      failureCount: 2,
      cooldownMs: 240_000,
    });
  });

  it('LOCK-11: a header hint longer than the base is taken as given; a body hint is capped at maxCooldownMs', () => {
    const header = recordModelFailure(
      NO_LOCKOUTS,
      modelFailure({ cooldownHintMs: 7_200_000, hintSource: 'header' }),
      ENABLED,
      T0,
    );
    expect(header.decision).toMatchObject({ cooldownMs: 7_200_000 });
    const body = recordModelFailure(
      NO_LOCKOUTS,
      modelFailure({ cooldownHintMs: 7_200_000, hintSource: 'body' }),
      ENABLED,
      T0,
    );
    expect(body.decision).toMatchObject({ cooldownMs: 1_800_000 });
    const short = recordModelFailure(
      NO_LOCKOUTS,
      modelFailure({ cooldownHintMs: 30_000, hintSource: 'header' }),
      ENABLED,
      T0,
    );
    expect(short.decision).toMatchObject({ cooldownMs: 120_000 });
  });

  it('LOCK-11: a longer hint arriving during a lock lengthens it without raising the count', () => {
    const first = recordModelFailure(NO_LOCKOUTS, modelFailure(), ENABLED, T0);
    const hinted = recordModelFailure(
      first.state,
      modelFailure({ cooldownHintMs: 600_000, hintSource: 'header' }),
      ENABLED,
      T0 + 1_000,
    );
    expect(hinted.decision).toMatchObject({ kind: 'locked', until: T0 + 601_000, failureCount: 1 });
  });

  it('LOCK-6, PROV-8: a lock ends exactly at its expiry with no clean-up run', () => {
    const { state } = recordModelFailure(NO_LOCKOUTS, modelFailure(), ENABLED, T0);
    expect(isModelLocked(state, PROVIDER, 'c1', 'model-a', T0 + 119_999)).not.toBeNull();
    expect(isModelLocked(state, PROVIDER, 'c1', 'model-a', T0 + 120_000)).toBeNull();
  });
});
