import { z } from 'zod';
import type { ProviderProfile } from '../provider-identity';
import { overlayDefined, type IntRange } from './setting-overrides';

/** Bounds shared by the stored-settings schema and the env reader (which clamps into them). */
export const BREAKER_RANGES = {
  failureThreshold: { min: 1, max: 1_000 },
  degradationThreshold: { min: 1, max: 1_000 },
  resetTimeoutMs: { min: 1_000, max: 3_600_000 },
  halfOpenProbes: { min: 1, max: 10 },
  backoffEscalationCount: { min: 0, max: 20 },
  maxBackoffMultiplier: { min: 1, max: 64 },
} as const satisfies Record<string, IntRange>;

const int = (range: IntRange) => z.number().int().min(range.min).max(range.max);

const fields = {
  /** Failures that open the breaker (BRK-3 "opens at"). */
  failureThreshold: int(BREAKER_RANGES.failureThreshold),
  /** Failures that mark it DEGRADED; null derives 60 % of failureThreshold, rounded up (local). */
  degradationThreshold: int(BREAKER_RANGES.degradationThreshold).nullable(),
  /** How long OPEN blocks before HALF_OPEN lets a probe through. */
  resetTimeoutMs: int(BREAKER_RANGES.resetTimeoutMs),
  /** Concurrent probe requests HALF_OPEN admits. */
  halfOpenProbes: int(BREAKER_RANGES.halfOpenProbes),
  /** Failed probe cycles tolerated before the reset timeout starts doubling (BRK-5). */
  backoffEscalationCount: int(BREAKER_RANGES.backoffEscalationCount),
  /** Cap of the escalated reset timeout, as a multiple of resetTimeoutMs (BRK-5). */
  maxBackoffMultiplier: int(BREAKER_RANGES.maxBackoffMultiplier),
};

/** One profile's complete breaker parameters. */
export const breakerProfileSettingsSchema = z.object(fields).strict();
export type BreakerProfileSettings = z.infer<typeof breakerProfileSettingsSchema>;

/** A layer of overrides for one profile (env, stored settings or one connection). */
export const breakerProfilePatchSchema = breakerProfileSettingsSchema.partial();
export type BreakerProfilePatch = z.infer<typeof breakerProfilePatchSchema>;

/** Overrides for any of the three profiles. */
export type BreakerSettingsPatch = Partial<Record<ProviderProfile, BreakerProfilePatch>>;

/** BRK-3 defaults; local keeps the reference class defaults for escalation (3 cycles, ×16). */
export const DEFAULT_BREAKER_SETTINGS: Readonly<Record<ProviderProfile, BreakerProfileSettings>> = {
  oauth: {
    failureThreshold: 8,
    degradationThreshold: 5,
    resetTimeoutMs: 60_000,
    halfOpenProbes: 1,
    backoffEscalationCount: 2,
    maxBackoffMultiplier: 8,
  },
  apikey: {
    failureThreshold: 12,
    degradationThreshold: 7,
    resetTimeoutMs: 30_000,
    halfOpenProbes: 1,
    backoffEscalationCount: 3,
    maxBackoffMultiplier: 4,
  },
  local: {
    failureThreshold: 2,
    degradationThreshold: null,
    resetTimeoutMs: 15_000,
    halfOpenProbes: 1,
    backoffEscalationCount: 3,
    maxBackoffMultiplier: 16,
  },
};

/**
 * The breaker section of the resilience settings: per-profile patches in, complete per-profile
 * settings out, so a stored row only needs the fields a person actually changed.
 */
export const breakerSettingsSchema = z
  .object({
    oauth: breakerProfilePatchSchema.optional(),
    apikey: breakerProfilePatchSchema.optional(),
    local: breakerProfilePatchSchema.optional(),
  })
  .strict()
  .default({})
  .transform((patch): Record<ProviderProfile, BreakerProfileSettings> => ({
    oauth: overlayDefined(DEFAULT_BREAKER_SETTINGS.oauth, patch.oauth),
    apikey: overlayDefined(DEFAULT_BREAKER_SETTINGS.apikey, patch.apikey),
    local: overlayDefined(DEFAULT_BREAKER_SETTINGS.local, patch.local),
  }));

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
