import { describe, expect, it } from 'vitest';
import { windowGateSettingsFromEnv } from './window-gate-env';
import {
  DEFAULT_WINDOW_GATE_SETTINGS,
  resolveWindowGateSettings,
  windowGateSettingsSchema,
} from './window-gate-settings';

describe('TEST-5 provider-cooldown-window-gate', () => {
  describe('settings and environment', () => {
    it('PROV-3 PROV-5: defaults are OAuth 10/15 min/5 min, API key 15/30 min/10 min, backoff 5 s..300 s', () => {
      const { profiles, minRetryCooldownMs, maxRetryCooldownMs, enabled } = DEFAULT_WINDOW_GATE_SETTINGS;
      expect(profiles.oauth).toEqual({
        providerFailureThreshold: 10,
        providerFailureWindowMs: 900_000,
        providerCooldownMs: 300_000,
      });
      expect(profiles.apikey).toEqual({
        providerFailureThreshold: 15,
        providerFailureWindowMs: 1_800_000,
        providerCooldownMs: 600_000,
      });
      expect([enabled, minRetryCooldownMs, maxRetryCooldownMs]).toEqual([false, 5_000, 300_000]);
    });

    it('PROV-1, QENV-4: PROVIDER_COOLDOWN_ENABLED turns the layer on only for true/1/on/yes', () => {
      for (const value of ['true', '1', 'on', 'YES', ' On ']) {
        expect(windowGateSettingsFromEnv({ PROVIDER_COOLDOWN_ENABLED: value }).enabled).toBe(true);
      }
      for (const value of ['false', '0', 'off']) {
        expect(windowGateSettingsFromEnv({ PROVIDER_COOLDOWN_ENABLED: value }).enabled).toBe(false);
      }
      expect(windowGateSettingsFromEnv({ PROVIDER_COOLDOWN_ENABLED: 'maybe' })).toEqual({});
      expect(resolveWindowGateSettings(windowGateSettingsFromEnv({})).enabled).toBe(false);
    });

    it('PROV-6, QENV-4: the six LEEWAY_PROVIDER_BREAKER_* variables override their profile values', () => {
      const env = {
        LEEWAY_PROVIDER_BREAKER_OAUTH_FAILURE_THRESHOLD: '4',
        LEEWAY_PROVIDER_BREAKER_OAUTH_FAILURE_WINDOW_MS: '60000',
        LEEWAY_PROVIDER_BREAKER_OAUTH_COOLDOWN_MS: '30000',
        LEEWAY_PROVIDER_BREAKER_API_KEY_FAILURE_THRESHOLD: '6',
        LEEWAY_PROVIDER_BREAKER_API_KEY_FAILURE_WINDOW_MS: '120000',
        LEEWAY_PROVIDER_BREAKER_API_KEY_COOLDOWN_MS: '45000',
      };
      const settings = resolveWindowGateSettings(windowGateSettingsFromEnv(env));
      expect(settings.profiles.oauth).toEqual({
        providerFailureThreshold: 4,
        providerFailureWindowMs: 60_000,
        providerCooldownMs: 30_000,
      });
      expect(settings.profiles.apikey).toEqual({
        providerFailureThreshold: 6,
        providerFailureWindowMs: 120_000,
        providerCooldownMs: 45_000,
      });
      expect(settings.profiles.local).toEqual(DEFAULT_WINDOW_GATE_SETTINGS.profiles.local);
    });

    it('PROV-6: unreadable values are ignored and out-of-range ones clamped', () => {
      const env = {
        LEEWAY_PROVIDER_BREAKER_OAUTH_FAILURE_THRESHOLD: 'lots',
        LEEWAY_PROVIDER_BREAKER_API_KEY_FAILURE_THRESHOLD: '0',
        LEEWAY_PROVIDER_BREAKER_API_KEY_COOLDOWN_MS: '10',
      };
      expect(windowGateSettingsFromEnv(env)).toEqual({
        profiles: { apikey: { providerFailureThreshold: 1, providerCooldownMs: 1_000 } },
      });
    });

    it('PROV-6: stored settings override env, which overrides defaults; undefined never erases', () => {
      const env = windowGateSettingsFromEnv({
        PROVIDER_COOLDOWN_ENABLED: '1',
        LEEWAY_PROVIDER_BREAKER_OAUTH_COOLDOWN_MS: '30000',
      });
      const stored = {
        enabled: false,
        profiles: { oauth: { providerCooldownMs: 90_000, providerFailureThreshold: undefined } },
      };
      const settings = resolveWindowGateSettings(env, stored);
      expect(settings.enabled).toBe(false);
      expect(settings.profiles.oauth).toEqual({
        providerFailureThreshold: 10,
        providerFailureWindowMs: 900_000,
        providerCooldownMs: 90_000,
      });
    });

    it('PROV-3: the settings schema completes a stored patch and rejects out-of-range values', () => {
      expect(windowGateSettingsSchema.parse(undefined)).toEqual(DEFAULT_WINDOW_GATE_SETTINGS);
      expect(windowGateSettingsSchema.parse({ maxRetryCooldownMs: 600_000 }).maxRetryCooldownMs).toBe(600_000);
      expect(
        windowGateSettingsSchema.safeParse({ profiles: { apikey: { providerFailureThreshold: 0 } } }).success,
      ).toBe(false);
      expect(windowGateSettingsSchema.safeParse({ profiles: { other: {} } }).success).toBe(false);
    });
  });
});
