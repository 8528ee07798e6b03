import type { ProxyInfo } from '../../../src-shared/contract/methods';
import type { ClaudeConnectionStatus } from '../../../src-shared/domain/claude';
import type { ConnectionTestResult } from '../../../src-shared/domain/connection-test';
import type { AffinityRepo } from '../../routing/affinity/pin-store';
import type { CombosRepo } from '../../db/combos-repo';
import type { ConnectionsRepo } from '../../db/connections-repo';
import type { KeysRepo } from '../../db/keys-repo';
import type { LeasesRepo } from '../../routing/leases/lease-store';
import type { RequestLog } from '../../db/request-log-repo';
import type { RoutesRepo } from '../../db/routes-repo';
import type { SettingsRepo } from '../../db/settings-repo';
import type { Database } from '../../db/open';
import type { EventBus } from '../../kernel/event-bus';
import type { QuotaAdmin, QuotaPoolsRepo } from '../../quota/quota-ports';
import type { ResilienceControl } from '../../resilience/resilience-control';
import type { ResilienceSettings } from '../../resilience/resilience-settings';
import type { SlotQueueStat } from '../../resilience/queue/connection-slots';
import type { HeldAction, HeldRequestView } from '../../../src-shared/domain/held';

/** What the contract handlers work with; the core builds it once. */
export interface HandlerDeps {
  db: Database;
  connections: ConnectionsRepo;
  keys: KeysRepo;
  combos: CombosRepo;
  settings: SettingsRepo;
  requestLog: RequestLog;
  /** Session pins (memory first); the request path shares this instance. */
  affinity: AffinityRepo;
  /** Exclusive leases; the request path shares this instance and its book. */
  leases: LeasesRepo;
  routes: RoutesRepo;
  /** Quota pools, allocations and plan overrides (SQLite metadata). */
  quotaPools: QuotaPoolsRepo;
  /** The running quota engine: usage snapshots, store status, reload after a change. */
  quota: QuotaAdmin;
  events: EventBus;
  now(): number;
  info(): ProxyInfo;
  resilience: ResilienceControl;
  resilienceSettings: {
    get(): ResilienceSettings;
    update(
      patch: Record<string, unknown>,
    ): { ok: true; value: ResilienceSettings } | { ok: false; issues: { path: string; message: string }[] };
  };
  testConnection(name: string): Promise<ConnectionTestResult | null>;
  claudeStatus(): ClaudeConnectionStatus[];
  /** Rebuilds the routing catalog after connections, combos or routes change. */
  reloadCatalog(): void;
  /** The request queues under maxConcurrent (QUEUE-1), shared with the request path; absent: none yet. */
  queues?: { stats(at: number): SlotQueueStat[] };
  /** The requests waiting now (issue 24 §2), shared with the request path; absent: none yet. */
  held?: {
    list(): HeldRequestView[];
    act(id: string, action: HeldAction): 'not_found' | 'not_offered' | null;
  };
}
