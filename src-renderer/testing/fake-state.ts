import type { DecisionRecord } from '../../src-shared/domain/decision';
import type {
  ClaudeCodeSettingsChange,
  ClaudeCodeSetupStatus,
  DiscoveredModelsView,
  ProxyInfo,
} from '../../src-shared/contract/methods';
import type { SessionPinView } from '../../src-shared/domain/affinity';
import type { AgentSetupStatus } from '../../src-shared/domain/agent-setup';
import type { ClaudeConnectionStatus } from '../../src-shared/domain/claude';
import type { ComboView } from '../../src-shared/domain/combo';
import type { ConnectionView } from '../../src-shared/domain/connection';
import type { CooldownSnapshot } from '../../src-shared/domain/cooldown';
import type { LeaseView } from '../../src-shared/domain/lease';
import type { LocalKeyView } from '../../src-shared/domain/local-key';
import type { OverviewRange, OverviewSeries, UsageSummary } from '../../src-shared/domain/overview';
import type { QuotaPlanView, QuotaPoolUsage, QuotaPoolView, QuotaStoreStatus } from '../../src-shared/domain/quota';
import type { RequestLogEntry } from '../../src-shared/domain/request-log';
import type { HeldRequestView } from '../../src-shared/domain/held';
import type { RequestQueueView } from '../../src-shared/domain/request-queue-view';
import { DEFAULT_RESILIENCE_SETTINGS, type ResilienceSettings } from '../../src-shared/domain/resilience-settings';
import type { Route } from '../../src-shared/domain/route';
import { DEFAULT_SETTINGS, type Settings } from '../../src-shared/domain/settings';
import { STORAGE_OK } from '../../src-shared/domain/storage-status';
import { fakeAgentStatuses } from './fake-agent-statuses';

/** What the fake core answers: plain data a test seeds, and reads after a tiny write changed it. */
export interface FakeState {
  info: ProxyInfo;
  connections: ConnectionView[];
  keys: LocalKeyView[];
  combos: ComboView[];
  routes: Route[];
  pins: SessionPinView[];
  leases: LeaseView[];
  settings: Settings;
  resilienceSettings: ResilienceSettings;
  /** Newest last, as recorded; `activity.list` answers newest first. */
  activity: RequestLogEntry[];
  /** Issue 24: decision records by request id, as seeded. */
  decisions: Record<number, DecisionRecord>;
  cooldowns: Omit<CooldownSnapshot, 'now'>;
  queues: RequestQueueView[];
  held: HeldRequestView[];
  claude: ClaudeConnectionStatus[];
  quotaPools: QuotaPoolView[];
  /** `quota.poolUsage` by pool id; a pool without an entry has no dimensions to show. */
  quotaUsage: Record<string, QuotaPoolUsage>;
  quotaPlans: QuotaPlanView[];
  quotaStoreStatus: QuotaStoreStatus;
  /** `overview.series` by range; a range without one is an empty series. */
  overview: Partial<Record<OverviewRange, OverviewSeries>>;
  overviewUsage: Omit<UsageSummary, 'at'>;
  discovered: DiscoveredModelsView[];
  claudeCode: { status: ClaudeCodeSetupStatus; change: ClaudeCodeSettingsChange };
  /** The other agents' setup (issue 23 §2), as `setup.agents.list` answers; see fake-agent-setup.ts. */
  agents: AgentSetupStatus[];
}

export const FAKE_INFO: ProxyInfo = {
  proxyUrl: 'http://127.0.0.1:7431',
  dashboardUrl: 'http://127.0.0.1:7431/',
  dataDir: '/home/user/.config/leeway',
  version: '0.0.0-fake',
  paused: false,
  startedAt: 0,
  mode: 'headless',
  storage: STORAGE_OK,
};

/** The store status a core with nothing configured reports. */
export const FAKE_QUOTA_STORE_STATUS: QuotaStoreStatus = {
  configured: 'sqlite',
  configuredFrom: 'default',
  active: 'sqlite',
  redisUrl: null,
  fallbackReason: null,
  saturationThreshold: 0.5,
  softDeprioritizeFactor: 0.7,
  retentionDays: 14,
};

const CLAUDE_SETTINGS = '/home/user/.claude/settings.json';

export function createFakeState(seed: Partial<FakeState> = {}): FakeState {
  return {
    info: FAKE_INFO,
    connections: [],
    keys: [],
    combos: [],
    routes: [],
    pins: [],
    leases: [],
    settings: DEFAULT_SETTINGS,
    resilienceSettings: structuredClone(DEFAULT_RESILIENCE_SETTINGS),
    activity: [],
    decisions: {},
    cooldowns: { connections: [], providers: [], models: [] },
    queues: [],
    held: [],
    claude: [],
    quotaPools: [],
    quotaUsage: {},
    quotaPlans: [],
    quotaStoreStatus: FAKE_QUOTA_STORE_STATUS,
    overview: {},
    overviewUsage: { connections: [], pools: [] },
    discovered: [],
    claudeCode: {
      status: { path: CLAUDE_SETTINGS, configured: false, backup: null },
      change: { path: CLAUDE_SETTINGS, exists: false, env: {}, removed: [], diff: [], changes: true },
    },
    agents: fakeAgentStatuses(),
    ...seed,
  };
}
