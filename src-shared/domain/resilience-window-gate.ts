import { z } from 'zod';
import { overlayDefined } from './overlay-defined';
import { WINDOW_GATE_RANGES, type IntRange, type ProviderProfile } from './resilience-ranges';

const int = (range: IntRange) => z.number().int().min(range.min).max(range.max);

/** One profile's window gate (PROV-3): cool only after `threshold` failures inside `window`. */
export const windowGateProfileSchema = z
  .object({
    providerFailureThreshold: int(WINDOW_GATE_RANGES.providerFailureThreshold),
    providerFailureWindowMs: int(WINDOW_GATE_RANGES.providerFailureWindowMs),
    providerCooldownMs: int(WINDOW_GATE_RANGES.providerCooldownMs),
  })
  .strict();
export type WindowGateProfile = z.infer<typeof windowGateProfileSchema>;
export const windowGateProfilePatchSchema = windowGateProfileSchema.partial();
export type WindowGateProfilePatch = z.infer<typeof windowGateProfilePatchSchema>;

/** Complete settings of the opt-in provider cooldown layer. */
export interface WindowGateSettings {
  /** PROV-1: the whole layer is off unless enabled. */
  enabled: boolean;
  /** PROV-5: first connection-level cooldown; doubles per consecutive failure. */
  minRetryCooldownMs: number;
  /** PROV-5: cap of the connection-level cooldown. */
  maxRetryCooldownMs: number;
  profiles: Record<ProviderProfile, WindowGateProfile>;
}

/** What a patch of the provider-cooldown section may say; out-of-range values are refused. */
export const windowGateSettingsPatchSchema = z
  .object({
    enabled: z.boolean().optional(),
    minRetryCooldownMs: int(WINDOW_GATE_RANGES.minRetryCooldownMs).optional(),
    maxRetryCooldownMs: int(WINDOW_GATE_RANGES.maxRetryCooldownMs).optional(),
    profiles: z
      .object({
        oauth: windowGateProfilePatchSchema.optional(),
        apikey: windowGateProfilePatchSchema.optional(),
        local: windowGateProfilePatchSchema.optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
/** Overrides from one layer (env or stored settings). */
export type WindowGateSettingsPatch = z.infer<typeof windowGateSettingsPatchSchema>;

/**
 * PROV-3 table for OAuth and API key; the spec has no local row, so local takes the reference
 * implementation's values (2 failures / 5 min / 1 min) because a loopback server fails fast and
 * recovers fast. Connection backoff uses the reference defaults of 5 s up to 5 min.
 */
export const DEFAULT_WINDOW_GATE_SETTINGS: Readonly<WindowGateSettings> = {
  enabled: false,
  minRetryCooldownMs: 5_000,
  maxRetryCooldownMs: 300_000,
  profiles: {
    oauth: { providerFailureThreshold: 10, providerFailureWindowMs: 900_000, providerCooldownMs: 300_000 },
    apikey: { providerFailureThreshold: 15, providerFailureWindowMs: 1_800_000, providerCooldownMs: 600_000 },
    local: { providerFailureThreshold: 2, providerFailureWindowMs: 300_000, providerCooldownMs: 60_000 },
  },
};

/** Merges layers lowest first (defaults < env < stored settings); undefined fields never erase. */
export function resolveWindowGateSettings(...layers: Array<WindowGateSettingsPatch | undefined>): WindowGateSettings {
  const { profiles, ...scalars } = DEFAULT_WINDOW_GATE_SETTINGS;
  // Scalars and profiles merge separately so a layer's partial profile never replaces a whole default one.
  const merged = overlayDefined(scalars, ...layers.map((layer) => layer && { ...layer, profiles: undefined }));
  const profileOf = (profile: ProviderProfile): WindowGateProfile =>
    overlayDefined(profiles[profile], ...layers.map((layer) => layer?.profiles?.[profile]));
  return { ...merged, profiles: { oauth: profileOf('oauth'), apikey: profileOf('apikey'), local: profileOf('local') } };
}

/** The provider-cooldown section of the resilience settings: a stored patch in, complete settings out. */
export const windowGateSettingsSchema = windowGateSettingsPatchSchema
  .default({})
  .transform((patch) => resolveWindowGateSettings(patch));
