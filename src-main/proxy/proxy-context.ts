import type { CooldownSnapshot } from '../../src-shared/domain/cooldown';
import type { ComboCooldownWaitSettings } from '../../src-shared/domain/resilience-combo-wait';
import type { NewRequestLogEntry } from '../../src-shared/domain/request-log';
import type { ThroughputWatchdogSettings } from '../../src-shared/domain/resilience-watchdog';
import type { LocalKeyView } from '../../src-shared/domain/local-key';
import type { Settings } from '../../src-shared/domain/settings';
import type { StorageStatus } from '../../src-shared/domain/storage-status';
import type { AffinityRepo } from '../routing/affinity/pin-store';
import type { PromptCacheBook } from '../routing/affinity/prompt-cache';
import type { LeasesRepo } from '../routing/leases/lease-store';
import type { ProviderHooks } from '../providers/provider-hooks';
import type { UpstreamPools } from '../providers/upstream-pools';
import type { QuotaRuntime } from '../quota/runtime/quota-runtime';
import type { QuotaShareDispatch } from '../quota/runtime/quota-share-dispatch';
import type { Catalog } from '../kernel/catalog';
import type { RoundRobinStore } from '../routing/strategies/round-robin-store';
import type { ConnectionSlots } from '../resilience/queue/connection-slots';
import type { InFlightRequests } from './stages/in-flight';
import type { ResiliencePort } from '../resilience/resilience-port';

/**
 * What the proxy needs from the core, as five ports and a clock (issue 22): read through functions
 * where a value may change, so a change is seen from the next request.
 */
export interface ProxyContext {
  /** What is configured: the catalog, settings, keys and the resilience settings the path reads. */
  config: ProxyConfig;
  /** The engines that screen, order, admit and learn. */
  engines: ProxyEngines;
  /** What ties a session to an account: pins, leases and where its prompt cache lives. */
  sessions: ProxySessions;
  /** The upstream side: connection pools and provider hooks. */
  upstream: ProxyUpstream;
  /** Where the path reports to: operator log, activity rows, storage state, requests in flight. */
  host: ProxyHost;
  now(): number;
}

export interface ProxyConfig {
  catalog(): Catalog;
  settings(): Settings;
  verifyKey(plainKey: string): LocalKeyView | null;
  /** CONC-5: whether quota-share dispatch waits for a connection's maxConcurrent slot (CONC-3). */
  quotaShareWaitsForSlot(): boolean;
  /** WATCH-1..7: the slow-stream watchdog's settings in force (absent: off). */
  throughputWatchdog?(): ThroughputWatchdogSettings;
  /** Extra Host names accepted besides loopback (when bound for remote use). */
  allowedHosts: ReadonlySet<string>;
  version: string;
  /**
   * ROUTE-5 / QENV-5: `LEEWAY_EMERGENCY_FALLBACK` as the entry read it at start (absent: off); the
   * runtime flag in Settings › Feature flags, when set, wins at once.
   */
  emergencyFallbackEnv?: boolean;
  /** The dashboard's address without its token, for refusals that send the user there (issue 21 §12). */
  dashboardUrl?: string;
}

export interface ProxyEngines {
  resilience: ResiliencePort;
  /** maxConcurrent semaphores, one per connection. */
  slots: ConnectionSlots;
  /** The quota engine: pre-check, post-record, saturation (issue 10). */
  quota: QuotaRuntime;
  /** The `qtSd/` combos' scheduler (ROUTE-10/11) and its in-flight leases. */
  quotaShare: QuotaShareDispatch;
  /** Combos' round-robin memory. */
  roundRobin: RoundRobinStore;
  /** CONC-7..9: the cooldown-wait bounds and, read only on a refusal's path, what is cooling and why. */
  cooldownWait: { settings(): ComboCooldownWaitSettings; snapshot(now: number): CooldownSnapshot };
}

export interface ProxySessions {
  /** Session pins (memory first, flushed by the core's timer). */
  affinity: AffinityRepo;
  /** Exclusive leases (memory book, written at once on each change). */
  leases: LeasesRepo;
  /** Issue 24 §3: where each session's prompt cache lives (memory: a cache is cold after 5 minutes). */
  promptCache: PromptCacheBook;
}

export interface ProxyUpstream {
  pools: UpstreamPools;
  /** Provider behaviour around each attempt (Claude tokens, lane, limit reset). */
  hooks: ProviderHooks;
}

export interface ProxyHost {
  /** Operator-facing warnings (never secrets). */
  log(line: string): void;
  record(entry: NewRequestLogEntry): void;
  /** Issue 21 §16: whether the data directory takes writes (`lost`: it is gone), for `/health`. */
  storage(): { status: StorageStatus; lost: boolean };
  /** Issue 21 §9: model requests running now, so a shutdown can wait for them and end the rest. */
  inFlight: InFlightRequests;
}
