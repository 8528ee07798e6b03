import {
  DEFAULT_BREAKER_SETTINGS,
  type BreakerProfilePatch,
  type BreakerProfileSettings,
} from '../../../src-shared/domain/resilience-breaker';
import type { ProviderProfile } from '../../kernel/provider-identity';
import { overlayDefined } from '../../../src-shared/domain/overlay-defined';

// The schemas, ranges and defaults live in src-shared, where the contract and the renderer read them too.
export {
  DEFAULT_BREAKER_SETTINGS,
  breakerProfilePatchSchema,
  breakerProfileSettingsSchema,
  breakerSettingsPatchSchema,
  breakerSettingsSchema,
  type BreakerProfilePatch,
  type BreakerProfileSettings,
  type BreakerSettingsPatch,
} from '../../../src-shared/domain/resilience-breaker';
export { BREAKER_RANGES } from '../../../src-shared/domain/resilience-ranges';

/** Merges layers for one profile, lowest first: defaults < env < stored settings < per-connection. */
export function resolveBreakerSettings(
  profile: ProviderProfile,
  ...layers: Array<BreakerProfilePatch | undefined>
): BreakerProfileSettings {
  return overlayDefined(DEFAULT_BREAKER_SETTINGS[profile], ...layers);
}

/** Failures that mean DEGRADED; the 60 % rule keeps a derived value in step with an overridden threshold. */
export function degradationThresholdOf(settings: BreakerProfileSettings): number {
  return settings.degradationThreshold ?? Math.ceil(settings.failureThreshold * 0.6);
}
