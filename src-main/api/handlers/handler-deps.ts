import type { ProxyInfo } from '../../../src-shared/contract/methods';
import type { ClaudeConnectionStatus } from '../../../src-shared/domain/claude';
import type { ConnectionTestResult } from '../../../src-shared/domain/connection-test';
import type { AffinityRepo } from '../../routing/affinity/pin-store';
import type { CombosRepo } from '../../db/combos-repo';
import type { ConnectionsRepo } from '../../db/connections-repo';
import type { KeysRepo } from '../../db/keys-repo';
import type { LeasesRepo } from '../../routing/leases/lease-store';
import type { RequestLog } from '../../db/request-log-repo';
import type { RequestLogSeries } from '../../db/request-log-series';
import type { RoutesRepo } from '../../db/routes-repo';
import type { EnvVars } from '../../kernel/env-vars';
import type { EventBus } from '../../kernel/event-bus';
import type { DiscoveredModelsRepo } from '../../providers/models-discovery-store';
import type { QuotaAdmin, QuotaPoolsRepo } from '../../quota/quota-ports';
import type { ResilienceControl } from '../../resilience/resilience-control';
import type { ResilienceSettings } from '../../resilience/resilience-settings';
import type { SlotQueueStat } from '../../resilience/queue/connection-slots';
import type { SettingsService } from '../../services/settings-service';
import type { HeldAction, HeldRequestView } from '../../../src-shared/domain/held';

/**
 * What the contract handlers work with: repositories and services, built once per start. A write
 * goes to a repository, whose change event rebuilds what depends on it (issue 22): no handler holds
 * the database or remembers which reload follows which write.
 */
export interface HandlerDeps {
  connections: ConnectionsRepo;
  keys: KeysRepo;
  combos: CombosRepo;
  settings: SettingsService;
  requestLog: RequestLog;
  /** The Overview's aggregation of the request log. */
  series: RequestLogSeries;
  /** What model discovery wrote through (the connection editor reads it). */
  discoveredModels: Pick<DiscoveredModelsRepo, 'loadAll'>;
  /** Session pins (memory first); the request path shares this instance. */
  affinity: AffinityRepo;
  /** Exclusive leases; the request path shares this instance and its book. */
  leases: LeasesRepo;
  routes: RoutesRepo;
  /** Quota pools, allocations and plan overrides (SQLite metadata). */
  quotaPools: QuotaPoolsRepo;
  /** Writes across repositories in one transaction (renames); their changes are told after the commit. */
  atomically<T>(work: () => T): T;
  /** The running quota engine: usage snapshots and the store's status. */
  quota: QuotaAdmin;
  events: EventBus;
  now(): number;
  info(): ProxyInfo;
  /** The environment the entry read (HOME, CLAUDE_CONFIG_DIR: where Claude Code keeps its files). */
  env: EnvVars;
  resilience: ResilienceControl;
  resilienceSettings: {
    get(): ResilienceSettings;
    update(
      patch: Record<string, unknown>,
    ): { ok: true; value: ResilienceSettings } | { ok: false; issues: { path: string; message: string }[] };
  };
  testConnection(name: string): Promise<ConnectionTestResult | null>;
  claudeStatus(): ClaudeConnectionStatus[];
  /** The request queues under maxConcurrent (QUEUE-1), shared with the request path; absent: none yet. */
  queues?: { stats(at: number): SlotQueueStat[] };
  /** The requests waiting now (issue 24 §2), shared with the request path; absent: none yet. */
  held?: {
    list(): HeldRequestView[];
    act(id: string, action: HeldAction): 'not_found' | 'not_offered' | null;
  };
}
