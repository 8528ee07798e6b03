import { z } from 'zod';
import { clampedInt } from './resilience-cooldown';
import { MODEL_LOCKOUT_RANGES } from './resilience-ranges';

/** Statuses that count as a model-level failure when a person names none (LOCK-9). */
export const DEFAULT_LOCKOUT_ERROR_CODES: readonly number[] = [403, 404, 429, 502, 503, 504];

/**
 * `Settings › Model Lockout` (LOCK-9, LOCK-10): off by default; ranges clamped and
 * `maxCooldownMs` raised to at least `baseCooldownMs`. `parse({})` yields every default.
 */
export const modelLockoutSettingsSchema = z
  .object({
    enabled: z.boolean().default(false),
    /** Upstream statuses that count as a model-level failure; junk is dropped, an empty list means the default. */
    errorCodes: z
      .array(z.number())
      .transform((codes) => {
        const kept = [...new Set(codes.filter((code) => Number.isInteger(code) && code >= 100 && code <= 599))];
        return kept.length > 0 ? kept : [...DEFAULT_LOCKOUT_ERROR_CODES];
      })
      .default(() => [...DEFAULT_LOCKOUT_ERROR_CODES]),
    baseCooldownMs: clampedInt(MODEL_LOCKOUT_RANGES.baseCooldownMs, 120_000),
    maxCooldownMs: clampedInt(MODEL_LOCKOUT_RANGES.maxCooldownMs, 1_800_000),
    maxBackoffSteps: clampedInt(MODEL_LOCKOUT_RANGES.maxBackoffSteps, 10),
    useExponentialBackoff: z.boolean().default(true),
  })
  .transform((s) => ({ ...s, maxCooldownMs: Math.max(s.maxCooldownMs, s.baseCooldownMs) }))
  .prefault({});

export type ModelLockoutSettings = z.output<typeof modelLockoutSettingsSchema>;

export const DEFAULT_MODEL_LOCKOUT_SETTINGS: ModelLockoutSettings = modelLockoutSettingsSchema.parse({});

/** What a patch of the model-lockout section may say; numbers are clamped and codes filtered on resolve. */
export const modelLockoutSettingsPatchSchema = z.object({
  enabled: z.boolean().optional(),
  errorCodes: z.array(z.number()).optional(),
  baseCooldownMs: z.number().optional(),
  maxCooldownMs: z.number().optional(),
  maxBackoffSteps: z.number().optional(),
  useExponentialBackoff: z.boolean().optional(),
});
export type ModelLockoutSettingsPatch = z.infer<typeof modelLockoutSettingsPatchSchema>;
