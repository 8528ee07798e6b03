import type { ProviderProfile } from '../../kernel/provider-identity';
import { BREAKER_RANGES, type BreakerProfilePatch, type BreakerSettingsPatch } from './breaker-settings';
import { readEnvInt, type EnvSource } from './setting-overrides';

/** Env-name segment of each profile (BRK-3 spells API key with an underscore). */
const ENV_SEGMENT: Record<ProviderProfile, string> = { oauth: 'OAUTH', apikey: 'API_KEY', local: 'LOCAL' };

/**
 * Reads `LEEWAY_CIRCUIT_BREAKER_{OAUTH,API_KEY,LOCAL}_{THRESHOLD,RESET_MS}` (BRK-3) into
 * per-profile overrides; only variables that are set and numeric appear in the result.
 */
export function breakerSettingsFromEnv(env: EnvSource): BreakerSettingsPatch {
  const result: BreakerSettingsPatch = {};
  for (const profile of Object.keys(ENV_SEGMENT) as ProviderProfile[]) {
    const prefix = `LEEWAY_CIRCUIT_BREAKER_${ENV_SEGMENT[profile]}`;
    const patch: BreakerProfilePatch = {};
    const threshold = readEnvInt(env, `${prefix}_THRESHOLD`, BREAKER_RANGES.failureThreshold);
    const resetMs = readEnvInt(env, `${prefix}_RESET_MS`, BREAKER_RANGES.resetTimeoutMs);
    if (threshold !== undefined) patch.failureThreshold = threshold;
    if (resetMs !== undefined) patch.resetTimeoutMs = resetMs;
    if (Object.keys(patch).length > 0) result[profile] = patch;
  }
  return result;
}
