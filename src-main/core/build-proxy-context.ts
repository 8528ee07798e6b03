import { createKeyVerifier } from '../api/key-verifier';
import type { EventBus } from '../kernel/event-bus';
import { LEEWAY_VERSION } from '../kernel/version';
import type { Observability } from '../observability/observability';
import { createClaudeHooks } from '../providers/claude-oauth/claude-hooks';
import type { InFlightRequests } from '../proxy/stages/in-flight';
import type { ProxyContext } from '../proxy/proxy-context';
import { createQuotaShareDispatch } from '../quota/runtime/quota-share-dispatch';
import { createPromptCacheBook } from '../routing/affinity/prompt-cache';
import { createRoundRobinStore } from '../routing/strategies/round-robin-store';
import type { Services } from './start-services';

export interface RequestPathInput {
  events: EventBus;
  obs: Observability;
  now(): number;
  inFlight: InFlightRequests;
  /** `--allow-remote` with a named host: that Host header is accepted besides loopback. */
  allowedHost: string | null;
  /** The dashboard's address without its token (refusals that send the user there, issue 21 §12). */
  dashboardUrl: string;
  /** ROUTE-5: `LEEWAY_EMERGENCY_FALLBACK` as the entry read it. */
  emergencyFallbackEnv: boolean;
}

/** What the request path gets from the running services: read through functions, so a change is seen at once. */
export function buildProxyContext(services: Services, input: RequestPathInput): ProxyContext {
  const { storage, settings, resilience, quota, catalog, loss } = services;
  const { obs, events } = input;
  return {
    config: {
      catalog: catalog.get,
      settings: settings.get,
      verifyKey: obs.rememberKeys(createKeyVerifier(storage.keys, events, input.now)),
      quotaShareWaitsForSlot: () => resilience.settings.get().quotaShareConcurrencyLimit.enabled,
      throughputWatchdog: () => resilience.settings.get().streamRecovery.throughputWatchdog,
      allowedHosts: new Set(input.allowedHost === null ? [] : [input.allowedHost]),
      version: LEEWAY_VERSION,
      emergencyFallbackEnv: input.emergencyFallbackEnv,
      dashboardUrl: input.dashboardUrl,
    },
    engines: {
      resilience: resilience.port,
      slots: services.slots,
      quota: quota.runtime,
      quotaShare: createQuotaShareDispatch(quota.runtime),
      roundRobin: createRoundRobinStore({
        stickyRoundRobinLimit: () => settings.get().stickyRoundRobinLimit,
        // One memory of the providers' windows (issue 22): the quota runtime keeps it, the strategies read it.
        readings: quota.runtime.saturation,
      }),
      cooldownWait: {
        settings: () => resilience.settings.get().comboCooldownWait,
        snapshot: (at) => resilience.control.snapshot(at),
      },
    },
    sessions: { affinity: storage.affinity, leases: storage.leases, promptCache: createPromptCacheBook() },
    upstream: { pools: services.pools, hooks: createClaudeHooks(services.claude) },
    host: {
      log: obs.log,
      // After the data dir is lost nothing more is logged; the gate refuses new requests already.
      record: obs.record((entry) => {
        if (loss.lost() === null) events.emit('activity.request', { entry: storage.requestLog.append(entry) });
      }),
      storage: () => ({ status: services.storageStatus(), lost: loss.lost() !== null }),
      inFlight: input.inFlight,
    },
    now: input.now,
  };
}
