/**
 * Bounds and profiles of the resilience settings, one table the schemas are built from and the
 * renderer's field specs read, so the two can never disagree.
 */

/** Which defaults (breaker thresholds, cooldown base, hint use) a provider gets. */
export const PROVIDER_PROFILES = ['oauth', 'apikey', 'local'] as const;
export type ProviderProfile = (typeof PROVIDER_PROFILES)[number];

/** Inclusive bounds a numeric setting must stay within. */
export interface IntRange {
  min: number;
  max: number;
}

const DAY = 86_400_000;

/** Breaker (BRK-3): values outside these are refused; env values are clamped into them. */
export const BREAKER_RANGES = {
  failureThreshold: { min: 1, max: 1_000 },
  degradationThreshold: { min: 1, max: 1_000 },
  resetTimeoutMs: { min: 1_000, max: 3_600_000 },
  halfOpenProbes: { min: 1, max: 10 },
  backoffEscalationCount: { min: 0, max: 20 },
  maxBackoffMultiplier: { min: 1, max: 64 },
} as const satisfies Record<string, IntRange>;

/** Provider cooldown window (PROV-3, PROV-5): refused outside; env values are clamped into them. */
export const WINDOW_GATE_RANGES = {
  providerFailureThreshold: { min: 1, max: 1_000 },
  providerFailureWindowMs: { min: 1_000, max: DAY },
  providerCooldownMs: { min: 1_000, max: DAY },
  minRetryCooldownMs: { min: 100, max: 3_600_000 },
  maxRetryCooldownMs: { min: 1_000, max: DAY },
} as const satisfies Record<string, IntRange>;

/** Connection cooldown (COOL-3..9): values outside are pulled in, so an old stored row still loads. */
export const COOLDOWN_RANGES = {
  profile: {
    baseCooldownMs: { min: 100, max: 600_000 },
    maxBackoffSteps: { min: 0, max: 20 },
    maxCooldownMs: { min: 1_000, max: DAY },
    backoffResetMs: { min: 0, max: DAY },
  },
  requestRejectedCooldownMs: { min: 1_000, max: DAY },
  requestRejectedRepeatCooldownMs: { min: 1_000, max: DAY },
  requestRejectedWindowMs: { min: 60_000, max: 7 * DAY },
  expiredRetryBaseMs: { min: 1_000, max: 3_600_000 },
} as const satisfies { profile: Record<string, IntRange> } & Record<string, IntRange | Record<string, IntRange>>;

/** Model lockout (LOCK-10): values outside are pulled in. */
export const MODEL_LOCKOUT_RANGES = {
  baseCooldownMs: { min: 5_000, max: 600_000 },
  maxCooldownMs: { min: 5_000, max: 3_600_000 },
  maxBackoffSteps: { min: 0, max: 20 },
} as const satisfies Record<string, IntRange>;

/** Operators declare at most this many error rules in total: each one is searched on every failure. */
export const MAX_OPERATOR_RULES = 50;
