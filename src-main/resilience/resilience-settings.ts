import { z } from 'zod';
import { breakerSettingsSchema, type BreakerProfileSettings } from './breaker/breaker-settings';
import { breakerSettingsFromEnv } from './breaker/breaker-env';
import type { EnvSource } from './breaker/setting-overrides';
import { providerErrorRulesSchema, type OperatorRules } from './classify/operator-rules';
import { cooldownSettingsSchema, type CooldownSettings } from './cooldown/cooldown-settings';
import { modelLockoutSettingsSchema, type ModelLockoutSettings } from './lockout/lockout-settings';
import type { ProviderProfile } from './provider-identity';
import { windowGateSettingsFromEnv } from './window-gate/window-gate-env';
import { resolveWindowGateSettings, windowGateSettingsSchema, type WindowGateSettings } from './window-gate/window-gate-settings';

/** Every resilience setting in force: defaults < env < stored (per-connection overrides apply at use). */
export interface ResilienceSettings {
  cooldown: CooldownSettings;
  breaker: Record<ProviderProfile, BreakerProfileSettings>;
  windowGate: WindowGateSettings;
  modelLockout: ModelLockoutSettings;
  providerErrorRules: OperatorRules;
}

/** What a person changed, section by section; stored as one JSON row and deep-merged on update. */
export type StoredResiliencePatch = Partial<Record<keyof ResilienceSettings, unknown>>;

const SECTIONS = ['cooldown', 'breaker', 'windowGate', 'modelLockout', 'providerErrorRules'] as const;
export const resiliencePatchSchema = z.object(Object.fromEntries(SECTIONS.map((s) => [s, z.unknown().optional()]))).strict();

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Objects merge key by key; anything else (numbers, arrays, rule lists) replaces. Keys are the
 * patch's own (a `__proto__` or `constructor` key stays a plain field for validation to refuse).
 */
export function deepMerge(base: unknown, patch: unknown): unknown {
  if (!isRecord(base) || !isRecord(patch)) return patch === undefined ? base : patch;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    const merged = deepMerge(Object.hasOwn(base, key) ? base[key] : undefined, value);
    Object.defineProperty(out, key, { value: merged, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

export type ResolveResult = { ok: true; value: ResilienceSettings } | { ok: false; issues: { path: string; message: string }[] };

/** Validates a stored patch and computes the settings in force, collecting every problem with its path. */
export function resolveResilienceSettings(stored: StoredResiliencePatch, env: EnvSource): ResolveResult {
  const issues: { path: string; message: string }[] = [];
  const parse = <T>(section: string, schema: z.ZodType<T>, value: unknown): T | null => {
    const r = schema.safeParse(value);
    if (r.success) return r.data;
    for (const i of r.error.issues) issues.push({ path: [section, ...i.path.map(String)].join('.'), message: i.message });
    return null;
  };
  const breaker = parse('breaker', breakerSettingsSchema, deepMerge(breakerSettingsFromEnv(env), stored.breaker ?? {}));
  const gateValid = parse('windowGate', windowGateSettingsSchema, stored.windowGate ?? {});
  const cooldown = parse('cooldown', cooldownSettingsSchema, stored.cooldown ?? {});
  const modelLockout = parse('modelLockout', modelLockoutSettingsSchema, stored.modelLockout ?? {});
  const providerErrorRules = parse('providerErrorRules', providerErrorRulesSchema, stored.providerErrorRules ?? {});
  if (!breaker || !gateValid || !cooldown || !modelLockout || !providerErrorRules) return { ok: false, issues };
  const windowGate = resolveWindowGateSettings(windowGateSettingsFromEnv(env), stored.windowGate as Parameters<typeof resolveWindowGateSettings>[0]);
  if (windowGate.maxRetryCooldownMs < windowGate.minRetryCooldownMs) {
    return { ok: false, issues: [{ path: 'windowGate.maxRetryCooldownMs', message: 'must be at least minRetryCooldownMs' }] };
  }
  return { ok: true, value: { breaker, windowGate, cooldown, modelLockout, providerErrorRules } };
}
