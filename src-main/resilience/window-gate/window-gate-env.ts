import { readEnvInt, type EnvSource } from '../breaker/setting-overrides';
import type { ProviderProfile } from '../../kernel/provider-identity';
import {
  WINDOW_GATE_RANGES,
  type WindowGateProfile,
  type WindowGateProfilePatch,
  type WindowGateSettingsPatch,
} from './window-gate-settings';

/** Values the reference accepts for PROVIDER_COOLDOWN_ENABLED; the negatives let a user say "off" explicitly. */
const TRUE_WORDS = new Set(['true', '1', 'on', 'yes']);
const FALSE_WORDS = new Set(['false', '0', 'off', 'no']);

/** PROV-6 variable suffix → profile field (mapping inferred in the spec). */
const FIELD_SUFFIX: Record<keyof WindowGateProfile, string> = {
  providerFailureThreshold: 'FAILURE_THRESHOLD',
  providerFailureWindowMs: 'FAILURE_WINDOW_MS',
  providerCooldownMs: 'COOLDOWN_MS',
};

/** Only OAuth and API key have variables (PROV-6); local is tuned through stored settings. */
const PROFILE_SEGMENT: Partial<Record<ProviderProfile, string>> = { oauth: 'OAUTH', apikey: 'API_KEY' };

/** Parses PROVIDER_COOLDOWN_ENABLED; anything unrecognised leaves the default (off, PROV-1). */
export function parseEnabledFlag(raw: string | undefined): boolean | undefined {
  const word = raw?.trim().toLowerCase();
  if (word === undefined) return undefined;
  if (TRUE_WORDS.has(word)) return true;
  return FALSE_WORDS.has(word) ? false : undefined;
}

/**
 * Reads `PROVIDER_COOLDOWN_ENABLED` (PROV-1) and the six
 * `LEEWAY_PROVIDER_BREAKER_{OAUTH,API_KEY}_{FAILURE_THRESHOLD,FAILURE_WINDOW_MS,COOLDOWN_MS}`
 * (PROV-6) into overrides; variables that are unset or unreadable are left out.
 */
export function windowGateSettingsFromEnv(env: EnvSource): WindowGateSettingsPatch {
  const result: WindowGateSettingsPatch = {};
  const enabled = parseEnabledFlag(env.PROVIDER_COOLDOWN_ENABLED);
  if (enabled !== undefined) result.enabled = enabled;
  const profiles: NonNullable<WindowGateSettingsPatch['profiles']> = {};
  for (const [profile, segment] of Object.entries(PROFILE_SEGMENT) as Array<[ProviderProfile, string]>) {
    const patch: WindowGateProfilePatch = {};
    for (const [field, suffix] of Object.entries(FIELD_SUFFIX) as Array<[keyof WindowGateProfile, string]>) {
      const value = readEnvInt(env, `LEEWAY_PROVIDER_BREAKER_${segment}_${suffix}`, WINDOW_GATE_RANGES[field]);
      if (value !== undefined) patch[field] = value;
    }
    if (Object.keys(patch).length > 0) profiles[profile] = patch;
  }
  if (Object.keys(profiles).length > 0) result.profiles = profiles;
  return result;
}
