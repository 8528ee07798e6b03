import { z } from 'zod';
import type { ProviderProfile } from '../provider-identity';

/** A whole number pulled into [min, max] instead of rejected, so an old or hand-edited value still loads. */
function clampedInt(min: number, max: number, fallback: number) {
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

function profileSchema(d: CooldownProfileSettings) {
  return z
    .object({
      baseCooldownMs: clampedInt(100, 600_000, d.baseCooldownMs),
      maxBackoffSteps: clampedInt(0, 20, d.maxBackoffSteps),
      maxCooldownMs: clampedInt(1_000, 86_400_000, d.maxCooldownMs),
      useUpstreamRetryHints: z.boolean().default(d.useUpstreamRetryHints),
      backoffResetMs: clampedInt(0, 86_400_000, d.backoffResetMs),
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
    requestRejectedCooldownMs: clampedInt(1_000, 86_400_000, 300_000),
    requestRejectedRepeatCooldownMs: clampedInt(1_000, 86_400_000, 900_000),
    /** A refusal older than this no longer continues the streak. */
    requestRejectedWindowMs: clampedInt(60_000, 7 * 86_400_000, 86_400_000),
    /** Expired-credential retry n waits `base * 2 ** (n - 1)` (COOL-9). */
    expiredRetryBaseMs: clampedInt(1_000, 3_600_000, 60_000),
  })
  .prefault({});

export type CooldownSettings = z.output<typeof cooldownSettingsSchema>;

export const DEFAULT_COOLDOWN_SETTINGS: CooldownSettings = cooldownSettingsSchema.parse({});

/** What `recordConnectionFailure` needs to know beyond the failure: settings, which profile, the connection's opt-out. */
export interface CooldownContext {
  settings: CooldownSettings;
  profile: ProviderProfile;
  /** Per-connection opt-out (COOL-15): no transient cooldown is written; terminal states still apply. */
  disableCooling: boolean;
}

export function profileCooldown(settings: CooldownSettings, profile: ProviderProfile): CooldownProfileSettings {
  switch (profile) {
    case 'oauth':
      return settings.oauth;
    case 'apikey':
      return settings.apikey;
    case 'local':
      return settings.local;
  }
}
