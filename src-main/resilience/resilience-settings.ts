import {
  resolveResilienceSections,
  type ResolveResult,
  type StoredResiliencePatch,
} from '../../src-shared/domain/resilience-settings';
import { breakerSettingsFromEnv } from './breaker/breaker-env';
import type { EnvSource } from './breaker/setting-overrides';
import { requestQueueFromEnv } from './queue/queue-env';
import { streamRecoveryFromEnv } from './watchdog/watchdog-env';
import { windowGateSettingsFromEnv } from './window-gate/window-gate-env';

// The sections' schemas, the patch schema and the merge live in src-shared; the core adds the env layer.
export {
  deepMerge,
  resiliencePatchSchema,
  type ResiliencePatch,
  type ResilienceSettings,
  type ResolveResult,
  type StoredResiliencePatch,
} from '../../src-shared/domain/resilience-settings';

/** Validates a stored patch and computes the settings in force (defaults < env < stored; QUEUE-7 for the request queue), collecting every problem with its path. */
export function resolveResilienceSettings(stored: StoredResiliencePatch, env: EnvSource): ResolveResult {
  return resolveResilienceSections(stored, {
    breaker: breakerSettingsFromEnv(env),
    windowGate: windowGateSettingsFromEnv(env),
    requestQueue: requestQueueFromEnv(env),
    streamRecovery: streamRecoveryFromEnv(env),
  });
}
