import { modelLockoutSettingsSchema, type ModelLockoutSettings } from './lockout-settings';
import type { ModelFailure } from './record-model-failure';

/** Shared by the lockout tests: a fixed clock, one provider, enabled settings and a failure builder. */
export const T0 = 1_700_000_000_000;
export const PROVIDER = 'openai-compatible@https://api.example.com';
export const ENABLED: ModelLockoutSettings = modelLockoutSettingsSchema.parse({ enabled: true });

export function modelFailure(over: Partial<ModelFailure> = {}): ModelFailure {
  return { provider: PROVIDER, connectionId: 'c1', model: 'model-a', status: 429, reason: 'rate_limit', ...over };
}
