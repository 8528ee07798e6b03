import { z } from 'zod';
import { COOLDOWN_RANGES, type IntRange } from './resilience-ranges';

/** A whole number pulled into the range instead of rejected, so an old or hand-edited value still loads. */
export function clampedInt({ min, max }: IntRange, fallback: number) {
  return z
    .number()
    .transform((value) => Math.min(max, Math.max(min, Math.round(value))))
    .default(fallback);
}

export interface CooldownProfileSettings {
  /** First cooldown; level n waits `base * 2 ** n` (COOL-3, COOL-5). */
  baseCooldownMs: number;
  /** Highest backoff level; the exponent stops growing here. */
  maxBackoffSteps: number;
  /** Ceiling of any computed cooldown (upstream hints are taken as given). */
  maxCooldownMs: number;
  /** Trust Retry-After / reset headers / reset text over the computed backoff (COOL-4). */
  useUpstreamRetryHints: boolean;
  /** A failure this long after the last cooldown ended starts the ladder again at level 0. */
  backoffResetMs: number;
}

/** OAuth subscriptions: 5 s base; hints off, as in the reference profile (COOL-4 asks for them on API keys only). */
export const OAUTH_COOLDOWN_DEFAULTS: CooldownProfileSettings = {
  baseCooldownMs: 5_000,
  maxBackoffSteps: 8,
  maxCooldownMs: 1_800_000,
  useUpstreamRetryHints: false,
  backoffResetMs: 120_000,
};

/** API keys: 3 s base and upstream hints preferred for 429s. Local servers reuse these: nothing local argues otherwise. */
export const APIKEY_COOLDOWN_DEFAULTS: CooldownProfileSettings = {
  baseCooldownMs: 3_000,
  maxBackoffSteps: 5,
  maxCooldownMs: 1_800_000,
  useUpstreamRetryHints: true,
  backoffResetMs: 120_000,
};

const P = COOLDOWN_RANGES.profile;

function profileSchema(d: CooldownProfileSettings) {
  return z
    .object({
      baseCooldownMs: clampedInt(P.baseCooldownMs, d.baseCooldownMs),
      maxBackoffSteps: clampedInt(P.maxBackoffSteps, d.maxBackoffSteps),
      maxCooldownMs: clampedInt(P.maxCooldownMs, d.maxCooldownMs),
      useUpstreamRetryHints: z.boolean().default(d.useUpstreamRetryHints),
      backoffResetMs: clampedInt(P.backoffResetMs, d.backoffResetMs),
    })
    .transform((p) => ({ ...p, maxCooldownMs: Math.max(p.maxCooldownMs, p.baseCooldownMs) }))
    .prefault({});
}

/** Connection cooldown section of the resilience settings; `parse({})` yields every default. */
export const cooldownSettingsSchema = z
  .object({
    oauth: profileSchema(OAUTH_COOLDOWN_DEFAULTS),
    apikey: profileSchema(APIKEY_COOLDOWN_DEFAULTS),
    local: profileSchema(APIKEY_COOLDOWN_DEFAULTS),
    /** Request-rejected ladder (COOL-8): first refusal, then every later one below the ban threshold. */
    requestRejectedCooldownMs: clampedInt(COOLDOWN_RANGES.requestRejectedCooldownMs, 300_000),
    requestRejectedRepeatCooldownMs: clampedInt(COOLDOWN_RANGES.requestRejectedRepeatCooldownMs, 900_000),
    /** A refusal older than this no longer continues the streak. */
    requestRejectedWindowMs: clampedInt(COOLDOWN_RANGES.requestRejectedWindowMs, 86_400_000),
    /** Expired-credential retry n waits `base * 2 ** (n - 1)` (COOL-9). */
    expiredRetryBaseMs: clampedInt(COOLDOWN_RANGES.expiredRetryBaseMs, 60_000),
  })
  .prefault({});

export type CooldownSettings = z.output<typeof cooldownSettingsSchema>;

export const DEFAULT_COOLDOWN_SETTINGS: CooldownSettings = cooldownSettingsSchema.parse({});

/**
 * One profile's overrides as a patch or a connection's `resilience.cooldown` may give them: any
 * number (the section schema clamps it), unknown keys dropped as the section schema drops them.
 */
export const cooldownProfilePatchSchema = z.object({
  baseCooldownMs: z.number().optional(),
  maxBackoffSteps: z.number().optional(),
  maxCooldownMs: z.number().optional(),
  useUpstreamRetryHints: z.boolean().optional(),
  backoffResetMs: z.number().optional(),
});
export type CooldownProfilePatch = z.infer<typeof cooldownProfilePatchSchema>;

/** What a patch of the cooldown section may say; numbers are clamped when the settings are resolved. */
export const cooldownSettingsPatchSchema = z.object({
  oauth: cooldownProfilePatchSchema.optional(),
  apikey: cooldownProfilePatchSchema.optional(),
  local: cooldownProfilePatchSchema.optional(),
  requestRejectedCooldownMs: z.number().optional(),
  requestRejectedRepeatCooldownMs: z.number().optional(),
  requestRejectedWindowMs: z.number().optional(),
  expiredRetryBaseMs: z.number().optional(),
});
export type CooldownSettingsPatch = z.infer<typeof cooldownSettingsPatchSchema>;
