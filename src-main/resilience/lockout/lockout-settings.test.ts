import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_LOCKOUT_SETTINGS, modelLockoutSettingsSchema } from './lockout-settings';

describe('model lockout settings', () => {
  it('LOCK-9: defaults are off, [403,404,429,502,503,504], 120 s base, 30 min max, 10 steps, exponential', () => {
    expect(DEFAULT_MODEL_LOCKOUT_SETTINGS).toEqual({
      enabled: false,
      errorCodes: [403, 404, 429, 502, 503, 504],
      baseCooldownMs: 120_000,
      maxCooldownMs: 1_800_000,
      maxBackoffSteps: 10,
      useExponentialBackoff: true,
    });
  });

  it('LOCK-10: baseCooldownMs, maxCooldownMs and maxBackoffSteps are clamped', () => {
    expect(
      modelLockoutSettingsSchema.parse({ baseCooldownMs: 1, maxCooldownMs: 1, maxBackoffSteps: -3 }),
    ).toMatchObject({ baseCooldownMs: 5_000, maxCooldownMs: 5_000, maxBackoffSteps: 0 });
    expect(
      modelLockoutSettingsSchema.parse({ baseCooldownMs: 1e9, maxCooldownMs: 1e9, maxBackoffSteps: 50 }),
    ).toMatchObject({ baseCooldownMs: 600_000, maxCooldownMs: 3_600_000, maxBackoffSteps: 20 });
  });

  it('LOCK-10: maxCooldownMs is raised to at least baseCooldownMs', () => {
    expect(modelLockoutSettingsSchema.parse({ baseCooldownMs: 300_000, maxCooldownMs: 60_000 })).toMatchObject({
      baseCooldownMs: 300_000,
      maxCooldownMs: 300_000,
    });
  });

  it('LOCK-10: error codes keep only whole 100–599 statuses, and an empty list means the default', () => {
    expect(modelLockoutSettingsSchema.parse({ errorCodes: [429, 429, 42, 700, 502.5, 500] }).errorCodes).toEqual([
      429, 500,
    ]);
    expect(modelLockoutSettingsSchema.parse({ errorCodes: [] }).errorCodes).toEqual([403, 404, 429, 502, 503, 504]);
  });

  it('LOCK-10: values of the wrong type are rejected rather than guessed', () => {
    expect(modelLockoutSettingsSchema.safeParse({ enabled: 'yes' }).success).toBe(false);
    expect(modelLockoutSettingsSchema.safeParse({ baseCooldownMs: '120000' }).success).toBe(false);
  });
});
