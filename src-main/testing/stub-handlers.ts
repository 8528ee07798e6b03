import { fail, ok } from '../../src-shared/contract/errors';
import { createRequestLogSeries } from '../db/request-log-series';
import { createMemoryDb } from './temp-db';
import type { ProxyInfo } from '../../src-shared/contract/methods';
import type { SessionPinView } from '../../src-shared/domain/affinity';
import type { LeaseView } from '../../src-shared/domain/lease';
import type { Route } from '../../src-shared/domain/route';
import type { ComboView } from '../../src-shared/domain/combo';
import type { ConnectionView } from '../../src-shared/domain/connection';
import type { LocalKeyView } from '../../src-shared/domain/local-key';
import type { QuotaPlanView, QuotaPoolUsage, QuotaPoolView, QuotaStoreStatus } from '../../src-shared/domain/quota';
import type { RequestLogEntry } from '../../src-shared/domain/request-log';
import { DEFAULT_RESILIENCE_SETTINGS } from '../../src-shared/domain/resilience-settings';
import { DEFAULT_SETTINGS } from '../../src-shared/domain/settings';
import { STORAGE_OK } from '../../src-shared/domain/storage-status';
import type { Handlers } from '../api/router';

/** Canned domain objects for door tests, which care about transport, not about the engines. */
export const stubInfo: ProxyInfo = {
  proxyUrl: 'http://127.0.0.1:7431',
  dashboardUrl: 'http://127.0.0.1:7431/',
  dataDir: '/tmp/leeway-test',
  version: '0.0.0-test',
  paused: false,
  startedAt: 1_700_000_000_000,
  mode: 'headless',
  storage: STORAGE_OK,
};

export const stubConnection: ConnectionView = {
  id: 'c1',
  name: 'anthropic-main',
  kind: 'anthropic',
  baseUrl: null,
  effectiveBaseUrl: 'https://api.anthropic.com',
  models: ['claude-sonnet-4-5'],
  modelAliases: {},
  priority: 1,
  enabled: true,
  maxConcurrent: null,
  disableCooling: false,
  providerSpecificData: {},
  secretHint: 'sk-ant…9xQa',
  createdAt: 1_700_000_000_000,
  updatedAt: 1_700_000_000_000,
};

export const stubKey: LocalKeyView = {
  id: 'k1',
  name: 'laptop',
  prefix: 'lw-abc',
  createdAt: 1_700_000_000_000,
  lastUsedAt: null,
  revokedAt: null,
  scopes: [],
  allowedConnections: [],
};

export const stubCombo: ComboView = {
  id: 'b1',
  name: 'fast',
  targets: [{ connection: 'anthropic-main', model: null }],
  strategy: 'priority',
  createdAt: 1_700_000_000_000,
  updatedAt: 1_700_000_000_000,
};

export const stubRoute: Route = { match: '*haiku*', to: 'fast' };

export const stubPin: SessionPinView = {
  keyName: 'laptop',
  session: 'session-1',
  target: 'fast',
  connection: 'anthropic-main',
  createdAt: 1_700_000_000_000,
  lastServedAt: 1_700_000_000_000,
  expiresAt: 1_700_003_600_000,
};

export const stubLease: LeaseView = {
  ownerHashPrefix: '0123abcd',
  keyName: 'laptop',
  connection: 'anthropic-main',
  generation: 1,
  state: 'active',
  acquiredAt: 1_700_000_000_000,
  renewedAt: 1_700_000_000_000,
  expiresAt: 1_700_000_120_000,
  endedAt: null,
  endReason: null,
};

export const stubLogEntry: RequestLogEntry = {
  id: 1,
  ts: 1_700_000_000_000,
  keyName: 'laptop',
  apiFormat: 'anthropic',
  endpoint: '/v1/messages',
  model: 'claude-sonnet-4-5',
  connection: 'anthropic-main',
  status: 200,
  stream: true,
  latencyMs: 850,
  ttfbMs: 300,
  inputTokens: 1200,
  outputTokens: 340,
  cacheReadTokens: null,
  cacheWriteTokens: null,
  failover: [],
  errorCode: null,
  servedVia: null,
  sessionPin: null,
};

export const stubPool: QuotaPoolView = {
  id: 'q1',
  name: 'team',
  connections: ['anthropic-main'],
  dimensions: [{ unit: 'requests', window: 'hourly', limit: 1500 }],
  effectiveDimensions: [{ unit: 'requests', window: 'hourly', limit: 1500 }],
  dimensionsSource: 'pool',
  allocations: [
    { keyId: 'k1', key: 'laptop', weight: 0, effectiveWeight: 100, policy: 'hard', capValue: null, capUnit: null },
  ],
  saturationThreshold: null,
  createdAt: 1_700_000_000_000,
  updatedAt: 1_700_000_000_000,
};

export const stubPoolUsage: QuotaPoolUsage = {
  poolId: 'q1',
  name: 'team',
  at: 1_700_000_000_000,
  saturationThreshold: 0.5,
  dimensions: [],
};

export const stubPlan: QuotaPlanView = {
  connection: 'anthropic-main',
  catalogProvider: null,
  source: 'none',
  dimensions: [],
  catalogDimensions: [],
};

export const stubStoreStatus: QuotaStoreStatus = {
  configured: 'sqlite',
  configuredFrom: 'default',
  active: 'sqlite',
  redisUrl: null,
  fallbackReason: null,
  saturationThreshold: 0.5,
  softDeprioritizeFactor: 0.7,
  retentionDays: 14,
};

/** A handler for every contract method answering canned ok Results; override the ones a test cares about. */
export function createStubHandlers(overrides: Partial<Handlers> = {}): Handlers {
  const handlers: Handlers = {
    'app.info': () => ok(stubInfo),
    'app.setPaused': ({ paused }) => ok({ ...stubInfo, paused }),
    'connections.list': () => ok([stubConnection]),
    'connections.upsert': (input) => ok({ ...stubConnection, name: input.name, kind: input.kind }),
    'connections.remove': () => ok({ removed: true }),
    'keys.list': () => ok([stubKey]),
    'keys.create': ({ name }) => ok({ key: { ...stubKey, name }, plainKey: 'lw-stub-plain-key-000000' }),
    'keys.revoke': () => ok({ revoked: true }),
    'combos.list': () => ok([stubCombo]),
    'combos.upsert': (input) => ok({ ...stubCombo, name: input.name, targets: input.targets }),
    'combos.remove': () => ok({ removed: true }),
    'routes.list': () => ok([stubRoute]),
    'routes.replace': ({ routes }) => ok(routes),
    'sessions.list': () => ok([stubPin]),
    'sessions.clear': () => ok({ cleared: 1 }),
    'leases.list': () => ok([stubLease]),
    'leases.clear': () => ok({ cleared: 1 }),
    'settings.get': () => ok(DEFAULT_SETTINGS),
    'settings.update': (patch) => ok({ ...DEFAULT_SETTINGS, ...patch }),
    'activity.list': () => ok([stubLogEntry]),
    'activity.summary': () => ok({ requestsToday: 1, errorsToday: 0 }),
    'activity.decision': ({ id }) =>
      ok({
        id: id === 'last' ? stubLogEntry.id : id,
        decision: { served: 'main', status: 200, heldMs: 0, queuedMs: 0, entries: [], omitted: 0 },
      }),
    'cooldowns.list': () => ok({ connections: [], providers: [], models: [], now: 1_700_000_000_000 }),
    'cooldowns.clear': () => ok({ cleared: 0 }),
    'queues.list': () => ok([]),
    'held.list': () => ok([]),
    'held.act': () => fail('not_found', 'Nothing is waiting.'),
    'connections.reset': ({ name }) => ok({ ...stubConnection, name }),
    'connections.test': () =>
      ok({ ok: true, status: 200, latencyMs: 12, message: 'Connected in 12 ms', models: ['claude-sonnet-4-5'] }),
    'resilience.reset': () => ok({ resetCount: 0 }),
    'claude.importCredentials': ({ name }) => ok({ ...stubConnection, name, kind: 'claude-oauth' }),
    'claude.status': () => ok([]),
    'resilience.getSettings': () => ok(DEFAULT_RESILIENCE_SETTINGS),
    'resilience.updateSettings': () => ok(DEFAULT_RESILIENCE_SETTINGS),
    'quota.listPools': () => ok([stubPool]),
    'quota.upsertPool': (spec) => ok({ ...stubPool, name: spec.name, connections: spec.connections }),
    'quota.removePool': () => ok({ removed: true }),
    'quota.poolUsage': () => ok(stubPoolUsage),
    'quota.listPlans': () => ok([stubPlan]),
    'quota.setPlan': ({ connection, dimensions }) => ok({ ...stubPlan, connection, source: 'manual', dimensions }),
    'quota.removePlan': ({ connection }) => ok({ ...stubPlan, connection }),
    'quota.storeStatus': () => ok(stubStoreStatus),
    'activity.exportCsv': () => ok({ filename: 'leeway-activity-stub.csv', csv: '', rows: 0, truncated: false }),
    'overview.usage': () => ok({ at: 1_700_000_000_000, connections: [], pools: [] }),
    'overview.series': ({ range }) => ok(createRequestLogSeries(createMemoryDb()).series(range, 1_700_000_000_000)),
    'models.discovered': () => ok([]),
    'connections.rename': ({ to }) => ok({ ...stubConnection, name: to }),
    'keys.rename': ({ name }) => ok({ ...stubKey, name }),
    'combos.rename': ({ to }) => ok({ ...stubCombo, name: to }),
    'cooldowns.probe': () =>
      ok({ connection: stubConnection.name, ok: true, lifted: true, message: 'answered; lifted' }),
    'setup.claudeCodePreview': () => ok(stubClaudeSettings),
    'setup.configureClaudeCode': () => ok({ ...stubClaudeSettings, backupPath: null }),
    'setup.undoClaudeCode': () => ok({ path: '/h/.claude/settings.json', restoredFrom: '/h/b', removedFile: false }),
    'setup.claudeCodeStatus': () => ok({ path: '/h/.claude/settings.json', configured: false, backup: null }),
    'setup.agents.list': () => ok([]),
    'setup.agent.preview': ({ agent }) => ok({ agent, files: [], changes: false, note: '' }),
    'setup.agent.apply': ({ agent }) => ok({ agent, files: [], changes: false, note: '', backups: [] }),
    'setup.agent.undo': ({ agent }) => ok({ agent, restored: [] }),
    'setup.agent.snippet': ({ agent }) => ok({ agent, title: agent, target: '/h/file', text: '' }),
  };
  return { ...handlers, ...overrides };
}

const stubClaudeSettings = {
  path: '/h/.claude/settings.json',
  exists: false,
  env: {},
  removed: [],
  diff: [],
  changes: true,
};
