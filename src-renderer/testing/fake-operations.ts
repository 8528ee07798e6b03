import { fail, ok } from '../../src-shared/contract/errors';
import type { FakeHandlers } from './fake-handlers';
import type { FakeState } from './fake-state';

const PATH = '/home/user/.claude/settings.json';

/**
 * The operational writes (sessions, cooldowns, quota, Claude, setup) as tiny state changes on the
 * seeded data: what a view shows after the re-read. Which plan applies after an override goes, or
 * what a settings file becomes, is the core's; see the `*.real.test.tsx` files for those.
 */
export function createFakeOperations(state: FakeState, now: () => number) {
  let nextId = 1;
  return {
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
      state.quotaPools = existing
        ? state.quotaPools.map((p) => (p.id === existing.id ? view : p))
        : [...state.quotaPools, view];
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
