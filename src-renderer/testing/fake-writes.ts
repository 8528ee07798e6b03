import { fail, ok } from '../../src-shared/contract/errors';
import { effectiveBaseUrl, hintSecret, type ConnectionView } from '../../src-shared/domain/connection';
import type { FakeHandlers } from './fake-handlers';
import type { FakeState } from './fake-state';

const PATH = '/home/user/.claude/settings.json';

/** Puts `item` in place of the one with its name, or last. */
const put = <T extends { name: string }>(list: T[], item: T): T[] =>
  list.some((x) => x.name === item.name) ? list.map((x) => (x.name === item.name ? item : x)) : [...list, item];

const renamed = <T extends { name: string }>(list: T[], from: string, to: string): T[] =>
  list.map((x) => (x.name === from ? { ...x, name: to } : x));

/**
 * Every write is a tiny state change on the seeded data, so the view's re-read shows it: no
 * validation, no cascades, no maths. What the core refuses or recomputes is tested against the real
 * handlers (`*.real.test.tsx`); a test wanting a refusal here wraps the transport.
 */
export function createFakeWrites(state: FakeState, now: () => number) {
  let nextId = 1;
  const found = <T extends { name: string }>(list: T[], name: string, what: string) =>
    list.find((x) => x.name === name) ?? fail('not_found', `No ${what} named "${name}"`);
  return {
    'app.setPaused': ({ paused }) => ok((state.info = { ...state.info, paused })),
    'connections.upsert': (draft) => {
      const existing = state.connections.find((c) => c.name === draft.name);
      const secret = draft.secret?.type === 'api-key' ? draft.secret.apiKey : draft.secret?.accessToken;
      // The view the core lists back: the secret only as its hint, defaults left out.
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
        ...(draft.acceptTranslated === false ? { acceptTranslated: false } : {}),
        ...(typeof draft.responsesApi === 'boolean' ? { responsesApi: draft.responsesApi } : {}),
        secretHint: secret === undefined ? (existing?.secretHint ?? null) : hintSecret(secret),
        createdAt: existing?.createdAt ?? now(),
        updatedAt: now(),
      };
      state.connections = put(state.connections, view);
      return ok(view);
    },
    'connections.remove': ({ name }) => {
      state.connections = state.connections.filter((c) => c.name !== name);
      return ok({ removed: true });
    },
    'connections.rename': ({ from, to }) => {
      const view = found(state.connections, from, 'connection');
      if ('ok' in view) return view;
      state.connections = renamed(state.connections, from, to);
      return ok({ ...view, name: to });
    },
    'connections.reset': ({ name }) => {
      const view = found(state.connections, name, 'connection');
      if ('ok' in view) return view;
      state.cooldowns = { ...state.cooldowns, connections: state.cooldowns.connections.filter((c) => c.name !== name) };
      return ok(view);
    },
    'keys.create': ({ name, key, scopes, allowedConnections }) => {
      const id = `k${nextId++}`;
      const plainKey = key ?? `lw-fake-${id}-${'0'.repeat(24)}`;
      const view = {
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
      return ok({ key: view, plainKey });
    },
    'keys.revoke': ({ id }) => {
      state.keys = state.keys.map((k) => (k.id === id ? { ...k, revokedAt: now() } : k));
      return ok({ revoked: true });
    },
    'keys.rename': ({ id, name }) => {
      state.keys = state.keys.map((k) => (k.id === id ? { ...k, name } : k));
      const view = state.keys.find((k) => k.id === id);
      return view ? ok(view) : fail('not_found', `No key with id "${id}"`);
    },
    'combos.upsert': ({ name, targets, strategy }) => {
      const existing = state.combos.find((c) => c.name === name);
      const view = {
        id: existing?.id ?? `b${nextId++}`,
        name,
        targets,
        strategy,
        createdAt: existing?.createdAt ?? now(),
        updatedAt: now(),
      };
      state.combos = put(state.combos, view);
      return ok(view);
    },
    'combos.remove': ({ name }) => {
      state.combos = state.combos.filter((c) => c.name !== name);
      return ok({ removed: true });
    },
    'combos.rename': ({ from, to }) => {
      const view = found(state.combos, from, 'combo');
      if ('ok' in view) return view;
      state.combos = renamed(state.combos, from, to);
      return ok({ ...view, name: to });
    },
    'routes.replace': ({ routes }) => ok((state.routes = routes)),
    'sessions.clear': (target) => {
      const before = state.pins.length;
      state.pins = state.pins.filter((p) =>
        target.target === 'all'
          ? false
          : target.target === 'connection'
            ? p.connection !== target.connection
            : !(p.keyName === target.keyName && p.session === target.session && p.target === target.scope),
      );
      return ok({ cleared: before - state.pins.length });
    },
    'leases.clear': (target) => {
      const before = state.leases.length;
      state.leases = state.leases.filter((l) => target.target === 'connection' && l.connection !== target.connection);
      return ok({ cleared: before - state.leases.length });
    },
    'settings.update': (patch) => ok((state.settings = { ...state.settings, ...patch })),
    // Canned: the settings in force stay as seeded (merging and clamping are the core's; see settings *.real tests).
    'resilience.updateSettings': () => ok(state.resilienceSettings),
    'cooldowns.clear': (target) => {
      const c = state.cooldowns;
      state.cooldowns =
        target.target === 'all'
          ? { connections: c.connections.filter((r) => r.terminal), providers: [], models: [] }
          : target.target === 'connection'
            ? { ...c, connections: c.connections.filter((r) => r.terminal || r.name !== target.connection) }
            : target.target === 'provider'
              ? { ...c, providers: c.providers.filter((p) => p.provider !== target.provider) }
              : { ...c, models: c.models.filter((m) => m.key !== target.key) };
      return ok({ cleared: 1 });
    },
    'resilience.reset': () => {
      state.cooldowns = { ...state.cooldowns, providers: [], models: [] };
      return ok({ resetCount: 0 });
    },
    'cooldowns.probe': (target) => {
      const name = target.target === 'connection' ? target.connection : null;
      return ok({ connection: name, ok: true, lifted: true, message: `${name ?? 'it'} answered; lifted` });
    },
    'claude.importCredentials': ({ name }) =>
      fail('not_found', `Could not import Claude Code credentials for "${name}": no login on this machine`),
    'quota.upsertPool': (spec) => {
      const existing = state.quotaPools.find((p) => p.name === spec.name);
      const keyId = (name: string) => state.keys.find((k) => k.name === name)?.id ?? name;
      const view = {
        ...spec,
        id: existing?.id ?? `pool-${nextId++}`,
        effectiveDimensions: spec.dimensions,
        dimensionsSource: 'pool' as const,
        allocations: spec.allocations.map((a) => ({ ...a, keyId: keyId(a.key), effectiveWeight: a.weight })),
        createdAt: existing?.createdAt ?? now(),
        updatedAt: now(),
      };
      state.quotaPools = put(state.quotaPools, view);
      return ok(view);
    },
    'quota.removePool': ({ name }) => {
      state.quotaPools = state.quotaPools.filter((p) => p.name !== name);
      return ok({ removed: true });
    },
    'quota.setPlan': ({ connection, dimensions }) => {
      const plan = {
        connection,
        catalogProvider: null,
        catalogDimensions: [],
        ...state.quotaPlans.find((p) => p.connection === connection),
        source: 'manual' as const,
        dimensions,
      };
      state.quotaPlans = state.quotaPlans.some((p) => p.connection === connection)
        ? state.quotaPlans.map((p) => (p.connection === connection ? plan : p))
        : [...state.quotaPlans, plan];
      return ok(plan);
    },
    // Canned: no plan in force afterwards (which plan applies then is the core's; see plans-section.real).
    'quota.removePlan': ({ connection }) =>
      ok({ connection, catalogProvider: null, source: 'none' as const, dimensions: [], catalogDimensions: [] }),
    'setup.configureClaudeCode': () => {
      const backup = { path: `${PATH}.leeway-backup-1`, at: now(), removesFile: false };
      state.claudeCode = { ...state.claudeCode, status: { ...state.claudeCode.status, configured: true, backup } };
      return ok({ ...state.claudeCode.change, backupPath: backup.path });
    },
    'setup.undoClaudeCode': () => {
      const { backup } = state.claudeCode.status;
      if (!backup) return fail('not_found', `No Leeway backup of ${PATH} to restore`);
      state.claudeCode = {
        ...state.claudeCode,
        status: { ...state.claudeCode.status, configured: false, backup: null },
      };
      return ok({ path: PATH, restoredFrom: backup.path, removedFile: backup.removesFile });
    },
  } satisfies Partial<FakeHandlers>;
}
