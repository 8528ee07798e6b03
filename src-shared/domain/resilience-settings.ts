import { z } from 'zod';
import { providerErrorRulesSchema, type OperatorRules } from './provider-error-rules';
import {
  comboCooldownWaitPatchSchema,
  comboCooldownWaitSchema,
  type ComboCooldownWaitSettings,
} from './resilience-combo-wait';
import {
  requestQueuePatchSchema,
  requestQueueSchema,
  type RequestQueuePatch,
  type RequestQueueSettings,
} from './resilience-request-queue';
import {
  streamRecoveryPatchSchema,
  streamRecoverySchema,
  type StreamRecoveryPatch,
  type StreamRecoverySettings,
} from './resilience-watchdog';
import {
  breakerSettingsPatchSchema,
  breakerSettingsSchema,
  type BreakerProfileSettings,
  type BreakerSettingsPatch,
} from './resilience-breaker';
import { cooldownSettingsPatchSchema, cooldownSettingsSchema, type CooldownSettings } from './resilience-cooldown';
import {
  modelLockoutSettingsPatchSchema,
  modelLockoutSettingsSchema,
  type ModelLockoutSettings,
} from './resilience-lockout';
import type { ProviderProfile } from './resilience-ranges';
import {
  resolveWindowGateSettings,
  windowGateSettingsPatchSchema,
  windowGateSettingsSchema,
  type WindowGateSettings,
  type WindowGateSettingsPatch,
} from './resilience-window-gate';

/** CONC-5: serialise quota-share dispatch through each connection's max_concurrent semaphore (default on). */
export const quotaShareConcurrencySchema = z.object({ enabled: z.boolean().default(true) }).strict();
export type QuotaShareConcurrencySettings = z.infer<typeof quotaShareConcurrencySchema>;

/** Every resilience setting in force: defaults < env < stored (per-connection overrides apply at use). */
export interface ResilienceSettings {
  cooldown: CooldownSettings;
  breaker: Record<ProviderProfile, BreakerProfileSettings>;
  windowGate: WindowGateSettings;
  modelLockout: ModelLockoutSettings;
  providerErrorRules: OperatorRules;
  quotaShareConcurrencyLimit: QuotaShareConcurrencySettings;
  comboCooldownWait: ComboCooldownWaitSettings;
  requestQueue: RequestQueueSettings;
  streamRecovery: StreamRecoverySettings;
}

export type ResilienceSection = keyof ResilienceSettings;

/**
 * `resilience.updateSettings` input: any sections, each only the fields a person changed. Shape and
 * refused ranges are checked here; clamping and cross-field rules happen when the merge is resolved.
 */
export const resiliencePatchSchema = z
  .object({
    cooldown: cooldownSettingsPatchSchema.optional(),
    breaker: breakerSettingsPatchSchema.optional(),
    windowGate: windowGateSettingsPatchSchema.optional(),
    modelLockout: modelLockoutSettingsPatchSchema.optional(),
    providerErrorRules: providerErrorRulesSchema.optional(),
    quotaShareConcurrencyLimit: z.object({ enabled: z.boolean() }).partial().strict().optional(),
    comboCooldownWait: comboCooldownWaitPatchSchema.optional(),
    requestQueue: requestQueuePatchSchema.optional(),
    streamRecovery: streamRecoveryPatchSchema.optional(),
  })
  .strict();
export type ResiliencePatch = z.input<typeof resiliencePatchSchema>;

/** Each section's schema from a stored patch to the settings in force (no env layer). */
export const resilienceSectionSchemas = {
  cooldown: cooldownSettingsSchema,
  breaker: breakerSettingsSchema,
  windowGate: windowGateSettingsSchema,
  modelLockout: modelLockoutSettingsSchema,
  providerErrorRules: providerErrorRulesSchema,
  quotaShareConcurrencyLimit: quotaShareConcurrencySchema,
  comboCooldownWait: comboCooldownWaitSchema,
  requestQueue: requestQueueSchema,
  streamRecovery: streamRecoverySchema,
} as const satisfies { [S in ResilienceSection]: z.ZodType<ResilienceSettings[S], unknown> };

/** What a person changed, section by section, as stored: unvalidated until resolved (it may be a hand edit). */
export type StoredResiliencePatch = Partial<Record<ResilienceSection, unknown>>;

/** Overrides that sit between the defaults and the stored patch (the core reads them from the environment). */
export interface ResilienceBaseLayers {
  breaker?: BreakerSettingsPatch;
  windowGate?: WindowGateSettingsPatch;
  /** QUEUE-6/9: RATE_LIMIT_* variables, under the stored values (QUEUE-7). */
  requestQueue?: RequestQueuePatch;
  /** WATCH-5: STREAM_THROUGHPUT_WATCHDOG_* variables, under the stored values. */
  streamRecovery?: StreamRecoveryPatch;
}

export interface SettingsIssue {
  path: string;
  message: string;
}

export type ResolveResult = { ok: true; value: ResilienceSettings } | { ok: false; issues: SettingsIssue[] };

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

/** Validates a stored patch over the base layers and computes the settings in force, collecting every problem with its path. */
export function resolveResilienceSections(
  stored: StoredResiliencePatch,
  base: ResilienceBaseLayers = {},
): ResolveResult {
  const issues: SettingsIssue[] = [];
  const parse = <T>(section: string, schema: z.ZodType<T, unknown>, value: unknown): T | null => {
    const r = schema.safeParse(value);
    if (r.success) return r.data;
    for (const i of r.error.issues)
      issues.push({ path: [section, ...i.path.map(String)].join('.'), message: i.message });
    return null;
  };
  const breaker = parse('breaker', breakerSettingsSchema, deepMerge(base.breaker ?? {}, stored.breaker ?? {}));
  const gatePatch = parse('windowGate', windowGateSettingsPatchSchema, stored.windowGate ?? {});
  const cooldown = parse('cooldown', cooldownSettingsSchema, stored.cooldown ?? {});
  const modelLockout = parse('modelLockout', modelLockoutSettingsSchema, stored.modelLockout ?? {});
  const providerErrorRules = parse('providerErrorRules', providerErrorRulesSchema, stored.providerErrorRules ?? {});
  const quotaShareConcurrencyLimit = parse(
    'quotaShareConcurrencyLimit',
    quotaShareConcurrencySchema,
    stored.quotaShareConcurrencyLimit ?? {},
  );
  const comboCooldownWait = parse('comboCooldownWait', comboCooldownWaitSchema, stored.comboCooldownWait ?? {});
  const requestQueue = parse(
    'requestQueue',
    requestQueueSchema,
    deepMerge(base.requestQueue ?? {}, stored.requestQueue ?? {}),
  );
  const streamRecovery = parse(
    'streamRecovery',
    streamRecoverySchema,
    deepMerge(base.streamRecovery ?? {}, stored.streamRecovery ?? {}),
  );
  if (
    !breaker ||
    !gatePatch ||
    !cooldown ||
    !modelLockout ||
    !providerErrorRules ||
    !quotaShareConcurrencyLimit ||
    !comboCooldownWait ||
    !requestQueue ||
    !streamRecovery
  )
    return { ok: false, issues };
  const windowGate = resolveWindowGateSettings(base.windowGate, gatePatch);
  if (windowGate.maxRetryCooldownMs < windowGate.minRetryCooldownMs) {
    return {
      ok: false,
      issues: [{ path: 'windowGate.maxRetryCooldownMs', message: 'must be at least minRetryCooldownMs' }],
    };
  }
  return {
    ok: true,
    value: {
      breaker,
      windowGate,
      cooldown,
      modelLockout,
      providerErrorRules,
      quotaShareConcurrencyLimit,
      comboCooldownWait,
      requestQueue,
      streamRecovery,
    },
  };
}

/** The settings in force with nothing stored and no environment. */
export const DEFAULT_RESILIENCE_SETTINGS: ResilienceSettings = (() => {
  const r = resolveResilienceSections({});
  if (!r.ok) throw new Error('resilience defaults do not validate');
  return r.value;
})();
