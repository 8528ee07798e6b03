import { describe, expect, it } from 'vitest';
import { breakerSettingsFromEnv } from './breaker-env';
import { canExecute, statusOf } from './breaker-gate';
import {
  DEFAULT_BREAKER_SETTINGS,
  breakerSettingsSchema,
  degradationThresholdOf,
  resolveBreakerSettings,
} from './breaker-settings';
import { breakerStateSchema, resetBreaker, restoreBreakerState, type BreakerState } from './breaker-state';
import { recordFailure } from './breaker-transitions';

const T0 = 1_700_000_000_000;

describe('breaker settings', () => {
  it('BRK-3: profile defaults are OAuth 5/8/60 s, API key 7/12/30 s, local ceil(60 %)/2/15 s', () => {
    const { oauth, apikey, local } = DEFAULT_BREAKER_SETTINGS;
    expect([degradationThresholdOf(oauth), oauth.failureThreshold, oauth.resetTimeoutMs]).toEqual([5, 8, 60_000]);
    expect([degradationThresholdOf(apikey), apikey.failureThreshold, apikey.resetTimeoutMs]).toEqual([7, 12, 30_000]);
    expect([degradationThresholdOf(local), local.failureThreshold, local.resetTimeoutMs]).toEqual([2, 2, 15_000]);
    expect([oauth.halfOpenProbes, apikey.halfOpenProbes, local.halfOpenProbes]).toEqual([1, 1, 1]);
  });

  it('BRK-3: the settings schema fills every profile from the defaults and keeps what was stored', () => {
    expect(breakerSettingsSchema.parse(undefined)).toEqual(DEFAULT_BREAKER_SETTINGS);
    const parsed = breakerSettingsSchema.parse({ apikey: { failureThreshold: 20 } });
    expect(parsed.apikey).toEqual({ ...DEFAULT_BREAKER_SETTINGS.apikey, failureThreshold: 20 });
    expect(parsed.oauth).toEqual(DEFAULT_BREAKER_SETTINGS.oauth);
  });

  it('BRK-3: the settings schema rejects values outside their ranges and unknown fields', () => {
    expect(breakerSettingsSchema.safeParse({ oauth: { failureThreshold: 0 } }).success).toBe(false);
    expect(breakerSettingsSchema.safeParse({ oauth: { resetTimeoutMs: 999 } }).success).toBe(false);
    expect(breakerSettingsSchema.safeParse({ local: { halfOpenProbes: 11 } }).success).toBe(false);
    expect(breakerSettingsSchema.safeParse({ oauth: { threshold: 3 } }).success).toBe(false);
  });

  it('BRK-3: LEEWAY_CIRCUIT_BREAKER_* variables become per-profile overrides', () => {
    const env = {
      LEEWAY_CIRCUIT_BREAKER_OAUTH_THRESHOLD: '10',
      LEEWAY_CIRCUIT_BREAKER_OAUTH_RESET_MS: '90000',
      LEEWAY_CIRCUIT_BREAKER_API_KEY_THRESHOLD: ' 20 ',
      LEEWAY_CIRCUIT_BREAKER_LOCAL_RESET_MS: '5000',
    };
    expect(breakerSettingsFromEnv(env)).toEqual({
      oauth: { failureThreshold: 10, resetTimeoutMs: 90_000 },
      apikey: { failureThreshold: 20 },
      local: { resetTimeoutMs: 5_000 },
    });
    expect(breakerSettingsFromEnv({})).toEqual({});
  });

  it('BRK-3: blank or non-numeric env values are ignored; out-of-range ones are clamped', () => {
    const env = {
      LEEWAY_CIRCUIT_BREAKER_OAUTH_THRESHOLD: 'ten',
      LEEWAY_CIRCUIT_BREAKER_OAUTH_RESET_MS: '',
      LEEWAY_CIRCUIT_BREAKER_API_KEY_THRESHOLD: '0',
      LEEWAY_CIRCUIT_BREAKER_API_KEY_RESET_MS: '99999999',
      LEEWAY_CIRCUIT_BREAKER_LOCAL_THRESHOLD: '3.7',
    };
    expect(breakerSettingsFromEnv(env)).toEqual({
      apikey: { failureThreshold: 1, resetTimeoutMs: 3_600_000 },
      local: { failureThreshold: 3 },
    });
  });

  it('BRK-3: layers merge defaults < env < stored < per-connection, and undefined never erases', () => {
    const env = breakerSettingsFromEnv({ LEEWAY_CIRCUIT_BREAKER_LOCAL_THRESHOLD: '5' });
    const merged = resolveBreakerSettings(
      'local',
      env.local,
      { resetTimeoutMs: 20_000 },
      { resetTimeoutMs: undefined },
    );
    expect(merged).toMatchObject({ failureThreshold: 5, resetTimeoutMs: 20_000 });
    expect(degradationThresholdOf(merged)).toBe(3);
  });

  it('BRK-3: an env threshold override changes when the breaker opens', () => {
    const settings = resolveBreakerSettings(
      'oauth',
      breakerSettingsFromEnv({ LEEWAY_CIRCUIT_BREAKER_OAUTH_THRESHOLD: '3' }).oauth,
    );
    let state = resetBreaker();
    for (let i = 0; i < 3; i++) state = recordFailure(state, settings, { countsForBreaker: true }, T0 + i);
    expect(state.kind).toBe('OPEN');
  });
});

describe('breaker persistence', () => {
  it('BRK-7: an OPEN state survives a JSON round trip and still turns HALF_OPEN on time', () => {
    const settings = DEFAULT_BREAKER_SETTINGS.apikey;
    let state: BreakerState = resetBreaker();
    for (let i = 0; i < 12; i++) state = recordFailure(state, settings, { countsForBreaker: true }, T0);
    const restored = restoreBreakerState(JSON.parse(JSON.stringify(state)));
    expect(restored).toEqual(state);
    expect(statusOf(restored, settings, T0 + 29_999).kind).toBe('OPEN');
    expect(statusOf(restored, settings, T0 + 30_000).kind).toBe('HALF_OPEN');
  });

  it('BRK-7: a restored HALF_OPEN gets its probe permits back, since in-flight probes died with the process', () => {
    const settings = DEFAULT_BREAKER_SETTINGS.oauth;
    const stored = {
      kind: 'HALF_OPEN',
      failureCount: 9,
      lastFailureAt: T0,
      reason: 'x',
      openCycles: 1,
      probeStartedAt: [T0],
    };
    expect(breakerStateSchema.safeParse(stored).success).toBe(true);
    const restored = restoreBreakerState(stored);
    expect(canExecute(restored, settings, T0 + 1)).toMatchObject({ allowed: true, probe: true });
  });

  it('BRK-7: an unreadable row restores as a fresh CLOSED breaker', () => {
    for (const bad of [null, 'OPEN', { kind: 'STUCK', failureCount: 1 }, { kind: 'OPEN', failureCount: -1 }]) {
      expect(restoreBreakerState(bad)).toMatchObject({ kind: 'CLOSED', failureCount: 0, lastFailureAt: null });
    }
  });

  it('BRK-7: resetBreaker gives a CLOSED breaker with every counter at zero', () => {
    expect(resetBreaker('manual reset')).toEqual({
      kind: 'CLOSED',
      failureCount: 0,
      lastFailureAt: null,
      reason: 'manual reset',
    });
  });
});
