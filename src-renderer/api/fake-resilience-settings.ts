import { fail, ok, type Result } from '../../src-shared/contract/errors';
import {
  DEFAULT_RESILIENCE_SETTINGS,
  deepMerge,
  resolveResilienceSections,
  type ResiliencePatch,
  type ResilienceSettings,
  type StoredResiliencePatch,
} from '../../src-shared/domain/resilience-settings';

/** The resilience settings as the core answers them with nothing stored and no environment. */
export function defaultResilienceSettings(): ResilienceSettings {
  return structuredClone(DEFAULT_RESILIENCE_SETTINGS);
}

/**
 * Deep-merges `patch` into the settings in force and resolves them with the core's own shared
 * schemas (the fake's contract check already refused what the router refuses), so clamping and
 * refusals match the core without a copy of the ranges.
 */
export function updateFakeResilience(current: ResilienceSettings, patch: ResiliencePatch): Result<ResilienceSettings> {
  const merged: StoredResiliencePatch = {};
  for (const key of [
    'cooldown',
    'breaker',
    'windowGate',
    'modelLockout',
    'providerErrorRules',
    'quotaShareConcurrencyLimit',
    'comboCooldownWait',
    'requestQueue',
    'streamRecovery',
  ] as const) {
    merged[key] = deepMerge(current[key], patch[key]);
  }
  const result = resolveResilienceSections(merged);
  if (!result.ok) {
    const { issues } = result;
    return fail('invalid_input', issues.map((i) => `${i.path}: ${i.message}`).join('; '), { details: { issues } });
  }
  return ok(result.value);
}
