import { z } from 'zod';

/** A whole number pulled into [min, max] instead of rejected, so an old or hand-edited value still loads. */
function clampedInt(min: number, max: number, fallback: number) {
  return z
    .number()
    .transform((value) => Math.min(max, Math.max(min, Math.round(value))))
    .default(fallback);
}

const DEFAULT_ERROR_CODES = [403, 404, 429, 502, 503, 504];

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
        return kept.length > 0 ? kept : [...DEFAULT_ERROR_CODES];
      })
      .default(() => [...DEFAULT_ERROR_CODES]),
    baseCooldownMs: clampedInt(5_000, 600_000, 120_000),
    maxCooldownMs: clampedInt(5_000, 3_600_000, 1_800_000),
    maxBackoffSteps: clampedInt(0, 20, 10),
    useExponentialBackoff: z.boolean().default(true),
  })
  .transform((s) => ({ ...s, maxCooldownMs: Math.max(s.maxCooldownMs, s.baseCooldownMs) }))
  .prefault({});

export type ModelLockoutSettings = z.output<typeof modelLockoutSettingsSchema>;

export const DEFAULT_MODEL_LOCKOUT_SETTINGS: ModelLockoutSettings = modelLockoutSettingsSchema.parse({});
