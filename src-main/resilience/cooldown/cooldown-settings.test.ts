import { describe, expect, it } from 'vitest';
import { cooldownSettingsSchema, DEFAULT_COOLDOWN_SETTINGS, profileCooldown } from './cooldown-settings';
import { formatDuration } from './format-duration';

describe('cooldown settings', () => {
  it('COOL-3: defaults are 5 s for OAuth and 3 s for API keys; local reuses the API-key profile', () => {
    expect(profileCooldown(DEFAULT_COOLDOWN_SETTINGS, 'oauth')).toMatchObject({
      baseCooldownMs: 5_000,
      maxBackoffSteps: 8,
      useUpstreamRetryHints: false,
    });
    expect(profileCooldown(DEFAULT_COOLDOWN_SETTINGS, 'apikey')).toMatchObject({
      baseCooldownMs: 3_000,
      maxBackoffSteps: 5,
      useUpstreamRetryHints: true,
    });
    expect(profileCooldown(DEFAULT_COOLDOWN_SETTINGS, 'local')).toEqual(DEFAULT_COOLDOWN_SETTINGS.apikey);
    expect(DEFAULT_COOLDOWN_SETTINGS).toMatchObject({
      requestRejectedCooldownMs: 300_000,
      requestRejectedRepeatCooldownMs: 900_000,
      requestRejectedWindowMs: 86_400_000,
      expiredRetryBaseMs: 60_000,
    });
  });

  it('COOL-3: a partial profile keeps that profile’s own defaults for the other fields', () => {
    const parsed = cooldownSettingsSchema.parse({ oauth: { baseCooldownMs: 7_000 } });
    expect(parsed.oauth).toMatchObject({ baseCooldownMs: 7_000, maxBackoffSteps: 8, useUpstreamRetryHints: false });
    expect(parsed.apikey).toEqual(DEFAULT_COOLDOWN_SETTINGS.apikey);
  });

  it('COOL-3: out-of-range values are clamped and maxCooldownMs is raised to at least baseCooldownMs', () => {
    const parsed = cooldownSettingsSchema.parse({
      apikey: { baseCooldownMs: 9_999_999, maxBackoffSteps: 99.6, maxCooldownMs: 5 },
      expiredRetryBaseMs: -1,
    });
    expect(parsed.apikey).toMatchObject({ baseCooldownMs: 600_000, maxBackoffSteps: 20, maxCooldownMs: 600_000 });
    expect(parsed.expiredRetryBaseMs).toBe(1_000);
    expect(cooldownSettingsSchema.safeParse({ oauth: { baseCooldownMs: 'fast' } }).success).toBe(false);
  });

  it('COOL-5: durations in decision reasons read as people write them', () => {
    expect([
      formatDuration(500),
      formatDuration(3_000),
      formatDuration(90_000),
      formatDuration(7_500_000),
      formatDuration(93_600_000),
    ]).toEqual(['500 ms', '3 s', '1 min 30 s', '2 h 5 min', '1 d 2 h']);
  });
});
