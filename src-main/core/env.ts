import type { EnvVars } from '../kernel/env-vars';
import { envProxySettings, type EnvProxySettings } from '../providers/upstream-pools';
import { parseEmergencyEnv } from '../routing/strategies/emergency-fallback';

/**
 * The environment, read once by the entry (headless.ts, shell/start-shell.ts) and passed down
 * (issue 22): no other production file reads the environment (eslint.config.js holds that). The variables
 * the core and the request path act on are parsed here; the engines' own variables (resilience's
 * PROVIDER_COOLDOWN_* / RATE_LIMIT_* / STREAM_*, the quota store's QUOTA_* / LEEWAY_QUOTA_*, egress)
 * and a config file's `${NAME}` references are read from the same snapshot by their own readers.
 */
export interface Env {
  /** Every variable as the process had it when the entry started (a copy: later changes are not seen). */
  vars: EnvVars;
  /** HTTPS_PROXY / HTTP_PROXY / NO_PROXY (either case), or null: upstreams are reached directly. */
  proxy: EnvProxySettings | null;
  /** ROUTE-5 `LEEWAY_EMERGENCY_FALLBACK` (default off); Settings › Feature flags wins when set. */
  emergencyFallback: boolean;
  /** `LEEWAY_MODEL_DISCOVERY=0` keeps Leeway from asking upstreams for their model lists on its own. */
  modelDiscovery: boolean;
}

export function readEnv(source: EnvVars): Env {
  const env: EnvVars = Object.freeze({ ...source });
  return {
    vars: env,
    proxy: envProxySettings(env),
    emergencyFallback: parseEmergencyEnv(env.LEEWAY_EMERGENCY_FALLBACK, false),
    modelDiscovery: env.LEEWAY_MODEL_DISCOVERY !== '0',
  };
}
