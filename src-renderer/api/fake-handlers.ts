import { fail, ok, type Result } from '../../src-shared/contract/errors';
import type { CoreEvent, EventMap, EventName } from '../../src-shared/contract/events';
import type { MethodName, MethodOutput, MethodParsedInput, ProxyInfo } from '../../src-shared/contract/methods';
import type { ClaudeConnectionStatus } from '../../src-shared/domain/claude';
import type { ComboView } from '../../src-shared/domain/combo';
import { effectiveBaseUrl, hintSecret, type ConnectionView } from '../../src-shared/domain/connection';
import type { ConnectionCooldownRow, CooldownSnapshot } from '../../src-shared/domain/cooldown';
import type { LocalKeyView } from '../../src-shared/domain/local-key';
import type { RequestLogEntry } from '../../src-shared/domain/request-log';
import type { ResilienceSettings } from '../../src-shared/domain/resilience-settings';
import { DEFAULT_SETTINGS, type Settings } from '../../src-shared/domain/settings';
import { STORAGE_OK } from '../../src-shared/domain/storage-status';
import type { SessionPinView } from '../../src-shared/domain/affinity';
import type { LeaseView } from '../../src-shared/domain/lease';
import type { Route } from '../../src-shared/domain/route';
import type { QuotaPlanView, QuotaPoolUsage, QuotaPoolView, QuotaStoreStatus } from '../../src-shared/domain/quota';
import { createFakeRenameHandlers } from '../features/connections/fake-rename-handlers';
import { createFakeOverviewHandlers } from '../features/overview/fake-overview-handlers';
import { createFakeSetupHandlers, createFakeSetupState } from '../features/setup/fake-setup-handlers';
import { createFakeActivityHandlers } from './fake-activity-handlers';
import { createFakeQuotaHandlers, FAKE_QUOTA_STORE_STATUS } from './fake-quota-handlers';
import { defaultResilienceSettings, updateFakeResilience } from './fake-resilience-settings';
import { createFakeSessionHandlers } from './fake-session-handlers';
import type { RequestQueueView } from '../../src-shared/domain/request-queue-view';

/** Everything the fake core remembers; tests may read and seed it directly. */
export interface FakeState {
  info: ProxyInfo;
  connections: ConnectionView[];
  keys: LocalKeyView[];
  combos: ComboView[];
  settings: Settings;
  activity: RequestLogEntry[];
  cooldowns: Omit<CooldownSnapshot, 'now'>;
  resilienceSettings: ResilienceSettings;
  claude: ClaudeConnectionStatus[];
  routes: Route[];
  pins: SessionPinView[];
  leases: LeaseView[];
  quotaPools: QuotaPoolView[];
  /** What `quota.poolUsage` answers, by pool id; a pool without an entry reports idle usage. */
  quotaUsage: Record<string, QuotaPoolUsage>;
  quotaPlans: QuotaPlanView[];
  quotaStoreStatus: QuotaStoreStatus;
  /** What `queues.list` answers (QUEUE-1); tests seed it. */
  queues?: RequestQueueView[];
}

export type FakeHandlers = { [M in MethodName]: (input: MethodParsedInput<M>) => Result<MethodOutput<M>> };

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

export function createFakeState(seed: Partial<FakeState> = {}): FakeState {
  return {
    info: FAKE_INFO,
    connections: [],
    keys: [],
    combos: [],
    settings: DEFAULT_SETTINGS,
    activity: [],
    cooldowns: { connections: [], providers: [], models: [] },
    claude: [],
    routes: [],
    pins: [],
    leases: [],
    quotaPools: [],
    quotaUsage: {},
    quotaPlans: [],
    quotaStoreStatus: FAKE_QUOTA_STORE_STATUS,
    resilienceSettings: defaultResilienceSettings(),
    ...seed,
  };
}

/** The contract's behaviour over memory, emitting the same events the real core does. */
export function createFakeHandlers(
  state: FakeState,
  emit: (event: CoreEvent) => void,
  now: () => number,
): FakeHandlers {
  let nextId = 1;
  const send = <K extends EventName>(type: K, payload: EventMap[K]): void => emit({ type, payload } as CoreEvent);
  const upsertBy = <T extends { name: string }>(list: T[], item: T): T[] =>
    list.some((x) => x.name === item.name) ? list.map((x) => (x.name === item.name ? item : x)) : [...list, item];

  return {
    'app.info': () => ok(state.info),
    'app.setPaused': ({ paused }) => {
      state.info = { ...state.info, paused };
      send('app.paused', { paused });
      return ok(state.info);
    },
    'connections.list': () => ok(state.connections),
    'connections.upsert': (draft) => {
      const existing = state.connections.find((c) => c.name === draft.name);
      const t = now();
      const secret = draft.secret?.type === 'api-key' ? draft.secret.apiKey : draft.secret?.accessToken;
      const view: ConnectionView = {
        id: existing?.id ?? `c${nextId++}`,
        name: draft.name,
        kind: draft.kind,
        baseUrl: draft.baseUrl ?? null,
        effectiveBaseUrl: effectiveBaseUrl(draft.kind, draft.baseUrl),
        models: draft.models,
        modelAliases: draft.modelAliases,
        priority: draft.priority,
        enabled: draft.enabled,
        maxConcurrent: draft.maxConcurrent,
        disableCooling: draft.disableCooling,
        providerSpecificData: draft.providerSpecificData,
        ...(draft.rateLimitOverrides ? { rateLimitOverrides: draft.rateLimitOverrides } : {}),
        // As the core's repository reads them back: present only when not the default.
        ...(draft.acceptTranslated === false ? { acceptTranslated: false } : {}),
        ...(draft.responsesApi === true || draft.responsesApi === false ? { responsesApi: draft.responsesApi } : {}),
        secretHint: secret === undefined ? (existing?.secretHint ?? null) : hintSecret(secret),
        createdAt: existing?.createdAt ?? t,
        updatedAt: t,
      };
      state.connections = upsertBy(state.connections, view);
      send('connections.changed', { connections: state.connections });
      return ok(view);
    },
    'connections.remove': ({ name }) => {
      const before = state.connections.length;
      state.connections = state.connections.filter((c) => c.name !== name);
      send('connections.changed', { connections: state.connections });
      return ok({ removed: state.connections.length < before });
    },
    'keys.list': () => ok(state.keys),
    'keys.create': ({ name, key, scopes, allowedConnections }) => {
      const id = `k${nextId++}`;
      const plainKey = key ?? `lw-fake-${id}-${'0'.repeat(24)}`;
      const view: LocalKeyView = {
        id,
        name,
        prefix: plainKey.slice(0, 8),
        createdAt: now(),
        lastUsedAt: null,
        revokedAt: null,
        scopes,
        allowedConnections,
      };
      state.keys = [...state.keys, view];
      send('keys.changed', { keys: state.keys });
      return ok({ key: view, plainKey });
    },
    'keys.revoke': ({ id }) => {
      if (!state.keys.some((k) => k.id === id)) return fail('not_found', `No key "${id}"`);
      state.keys = state.keys.map((k) => (k.id === id ? { ...k, revokedAt: now() } : k));
      send('keys.changed', { keys: state.keys });
      return ok({ revoked: true });
    },
    'combos.list': () => ok(state.combos),
    'combos.upsert': ({ name, targets, strategy }) => {
      const existing = state.combos.find((c) => c.name === name);
      const view: ComboView = {
        id: existing?.id ?? `b${nextId++}`,
        name,
        targets,
        strategy,
        createdAt: existing?.createdAt ?? now(),
        updatedAt: now(),
      };
      state.combos = upsertBy(state.combos, view);
      send('combos.changed', { combos: state.combos });
      return ok(view);
    },
    ...createFakeSessionHandlers(state, emit),
    ...createFakeQuotaHandlers(state, now),
    'combos.remove': ({ name }) => {
      const before = state.combos.length;
      state.combos = state.combos.filter((c) => c.name !== name);
      send('combos.changed', { combos: state.combos });
      return ok({ removed: state.combos.length < before });
    },
    'settings.get': () => ok(state.settings),
    'settings.update': (patch) => {
      state.settings = { ...state.settings, ...patch };
      send('settings.changed', { settings: state.settings });
      return ok(state.settings);
    },
    ...createFakeActivityHandlers(state),
    ...createFakeOverviewHandlers(state, now),
    ...createFakeRenameHandlers(state, emit),
    ...createFakeSetupHandlers(createFakeSetupState(), () => state.info.proxyUrl),
    'cooldowns.list': () => ok({ ...state.cooldowns, now: now() }),
    'queues.list': () => ok(state.queues ?? []),
    'cooldowns.clear': (input) => {
      const before = state.cooldowns;
      const transient = (c: ConnectionCooldownRow): ConnectionCooldownRow =>
        c.terminal ? c : { ...c, rateLimitedUntil: null, retryAfterMs: null, testStatus: 'active' };
      switch (input.target) {
        case 'all':
          state.cooldowns = { ...before, connections: before.connections.map(transient), providers: [], models: [] };
          break;
        case 'connection':
          state.cooldowns = {
            ...before,
            connections: before.connections.map((c) =>
              c.name === input.connection || c.id === input.connection ? transient(c) : c,
            ),
            models: before.models.filter(
              (m) => m.connection !== input.connection && m.connectionId !== input.connection,
            ),
          };
          break;
        case 'provider':
          state.cooldowns = { ...before, providers: before.providers.filter((p) => p.provider !== input.provider) };
          break;
        case 'model':
          state.cooldowns = { ...before, models: before.models.filter((m) => m.key !== input.key) };
          break;
      }
      send('cooldowns.changed', { snapshot: { ...state.cooldowns, now: now() } });
      return ok({ cleared: 1 });
    },
    'connections.test': ({ name }) =>
      state.connections.some((c) => c.name === name)
        ? ok({ ok: true, status: 200, latencyMs: 42, message: 'Connected in 42 ms', models: [] })
        : fail('not_found', `No connection named "${name}"`),
    'connections.reset': ({ name }) => {
      const view = state.connections.find((c) => c.name === name);
      if (!view) return fail('not_found', `No connection named "${name}"`);
      state.cooldowns = {
        ...state.cooldowns,
        connections: state.cooldowns.connections.map((c) =>
          c.name === name
            ? {
                ...c,
                rateLimitedUntil: null,
                retryAfterMs: null,
                testStatus: 'active',
                terminal: false,
                lastError: null,
              }
            : c,
        ),
      };
      send('cooldowns.changed', { snapshot: { ...state.cooldowns, now: now() } });
      return ok(view);
    },
    'resilience.reset': () => {
      const resetCount = state.cooldowns.providers.length;
      state.cooldowns = { ...state.cooldowns, providers: [], models: [] };
      send('cooldowns.changed', { snapshot: { ...state.cooldowns, now: now() } });
      return ok({ resetCount });
    },
    'resilience.getSettings': () => ok(state.resilienceSettings),
    'resilience.updateSettings': (patch) => {
      const result = updateFakeResilience(state.resilienceSettings, patch);
      if (result.ok) {
        state.resilienceSettings = result.value;
        send('resilience.settingsChanged', { settings: result.value });
      }
      return result;
    },
    'claude.importCredentials': ({ name }) =>
      fail('not_found', `Could not import Claude Code credentials for "${name}": no login on this machine`),
    'claude.status': () => ok(state.claude),
  };
}
