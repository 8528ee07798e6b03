import { fail, ok, type Result } from '../../src-shared/contract/errors';

/**
 * The resilience settings as the core answers them with nothing stored (src-main/resilience/*-settings.ts),
 * and a stand-in for its validation: breaker and window-gate values outside their range are refused with
 * `details.issues`, cooldown and model-lockout values are clamped, as the real schemas do.
 */
export function defaultResilienceSettings(): Record<string, unknown> {
  const cool = (base: number, steps: number, hints: boolean) => ({
    baseCooldownMs: base,
    maxBackoffSteps: steps,
    maxCooldownMs: 1_800_000,
    useUpstreamRetryHints: hints,
    backoffResetMs: 120_000,
  });
  const breaker = (
    failure: number,
    degraded: number | null,
    reset: number,
    escalation: number,
    multiplier: number,
  ) => ({
    failureThreshold: failure,
    degradationThreshold: degraded,
    resetTimeoutMs: reset,
    halfOpenProbes: 1,
    backoffEscalationCount: escalation,
    maxBackoffMultiplier: multiplier,
  });
  const gate = (threshold: number, windowMs: number, cooldownMs: number) => ({
    providerFailureThreshold: threshold,
    providerFailureWindowMs: windowMs,
    providerCooldownMs: cooldownMs,
  });
  return {
    cooldown: {
      oauth: cool(5_000, 8, false),
      apikey: cool(3_000, 5, true),
      local: cool(3_000, 5, true),
      requestRejectedCooldownMs: 300_000,
      requestRejectedRepeatCooldownMs: 900_000,
      requestRejectedWindowMs: 86_400_000,
      expiredRetryBaseMs: 60_000,
    },
    breaker: {
      oauth: breaker(8, 5, 60_000, 2, 8),
      apikey: breaker(12, 7, 30_000, 3, 4),
      local: breaker(2, null, 15_000, 3, 16),
    },
    windowGate: {
      enabled: false,
      minRetryCooldownMs: 5_000,
      maxRetryCooldownMs: 300_000,
      profiles: {
        oauth: gate(10, 900_000, 300_000),
        apikey: gate(15, 1_800_000, 600_000),
        local: gate(2, 300_000, 60_000),
      },
    },
    modelLockout: {
      enabled: false,
      errorCodes: [403, 404, 429, 502, 503, 504],
      baseCooldownMs: 120_000,
      maxCooldownMs: 1_800_000,
      maxBackoffSteps: 10,
      useExponentialBackoff: true,
    },
    providerErrorRules: {},
  };
}

type Rule = { min: number; max: number; clamp: boolean };

/** Ranges by path, `*` standing for a provider profile. */
const RULES: Record<string, Rule> = {
  'breaker.*.failureThreshold': { min: 1, max: 1_000, clamp: false },
  'breaker.*.degradationThreshold': { min: 1, max: 1_000, clamp: false },
  'breaker.*.resetTimeoutMs': { min: 1_000, max: 3_600_000, clamp: false },
  'breaker.*.halfOpenProbes': { min: 1, max: 10, clamp: false },
  'breaker.*.backoffEscalationCount': { min: 0, max: 20, clamp: false },
  'breaker.*.maxBackoffMultiplier': { min: 1, max: 64, clamp: false },
  'windowGate.minRetryCooldownMs': { min: 100, max: 3_600_000, clamp: false },
  'windowGate.maxRetryCooldownMs': { min: 1_000, max: 86_400_000, clamp: false },
  'windowGate.profiles.*.providerFailureThreshold': { min: 1, max: 1_000, clamp: false },
  'windowGate.profiles.*.providerFailureWindowMs': { min: 1_000, max: 86_400_000, clamp: false },
  'windowGate.profiles.*.providerCooldownMs': { min: 1_000, max: 86_400_000, clamp: false },
  'cooldown.*.baseCooldownMs': { min: 100, max: 600_000, clamp: true },
  'cooldown.*.maxBackoffSteps': { min: 0, max: 20, clamp: true },
  'cooldown.*.maxCooldownMs': { min: 1_000, max: 86_400_000, clamp: true },
  'modelLockout.baseCooldownMs': { min: 5_000, max: 600_000, clamp: true },
  'modelLockout.maxCooldownMs': { min: 5_000, max: 3_600_000, clamp: true },
  'modelLockout.maxBackoffSteps': { min: 0, max: 20, clamp: true },
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const PROFILES = new Set(['oauth', 'apikey', 'local']);
const ruleFor = (path: string[]): Rule | undefined => RULES[path.map((k) => (PROFILES.has(k) ? '*' : k)).join('.')];

/** Deep-merges `patch` into `current` (objects by key, anything else replaces), checking each number against its range. */
export function updateFakeResilience(
  current: Record<string, unknown>,
  patch: Record<string, unknown>,
): Result<Record<string, unknown>> {
  const issues: { path: string; message: string }[] = [];
  const merge = (base: unknown, next: unknown, path: string[]): unknown => {
    if (isRecord(base) && isRecord(next)) {
      const out: Record<string, unknown> = { ...base };
      for (const [key, value] of Object.entries(next)) out[key] = merge(base[key], value, [...path, key]);
      return out;
    }
    const rule = ruleFor(path);
    if (rule && typeof next === 'number') {
      if (next >= rule.min && next <= rule.max) return next;
      if (rule.clamp) return Math.min(rule.max, Math.max(rule.min, Math.round(next)));
      issues.push({
        path: path.join('.'),
        message:
          next < rule.min
            ? `Too small: expected number to be >=${rule.min}`
            : `Too big: expected number to be <=${rule.max}`,
      });
    }
    return next;
  };
  const merged = merge(current, patch, []) as Record<string, unknown>;
  if (issues.length > 0)
    return fail('invalid_input', issues.map((i) => `${i.path}: ${i.message}`).join('; '), { details: { issues } });
  const lockout = merged.modelLockout;
  if (isRecord(lockout) && typeof lockout.maxCooldownMs === 'number' && typeof lockout.baseCooldownMs === 'number') {
    merged.modelLockout = { ...lockout, maxCooldownMs: Math.max(lockout.maxCooldownMs, lockout.baseCooldownMs) };
  }
  return ok(merged);
}
