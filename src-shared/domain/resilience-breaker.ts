import { z } from 'zod';
import { overlayDefined } from './overlay-defined';
import { BREAKER_RANGES, type IntRange, type ProviderProfile } from './resilience-ranges';

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

/** What a patch of the breaker section may say: per-profile overrides, out-of-range values refused. */
export const breakerSettingsPatchSchema = z
  .object({
    oauth: breakerProfilePatchSchema.optional(),
    apikey: breakerProfilePatchSchema.optional(),
    local: breakerProfilePatchSchema.optional(),
  })
  .strict();
/** Overrides for any of the three profiles. */
export type BreakerSettingsPatch = z.infer<typeof breakerSettingsPatchSchema>;

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
export const breakerSettingsSchema = breakerSettingsPatchSchema
  .default({})
  .transform((patch): Record<ProviderProfile, BreakerProfileSettings> => ({
    oauth: overlayDefined(DEFAULT_BREAKER_SETTINGS.oauth, patch.oauth),
    apikey: overlayDefined(DEFAULT_BREAKER_SETTINGS.apikey, patch.apikey),
    local: overlayDefined(DEFAULT_BREAKER_SETTINGS.local, patch.local),
  }));
