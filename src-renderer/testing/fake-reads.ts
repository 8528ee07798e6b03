import { ok } from '../../src-shared/contract/errors';
import type { FakeHandlers } from './fake-handlers';
import { emptySeries } from './fake-fixtures';
import type { FakeState } from './fake-state';

/**
 * Every read answers what the test seeded, as it is: no filtering, no aggregation, no maths. Only
 * paging (`beforeId`, `limit`) is applied, since "Load older" is the contract's own shape.
 */
export function createFakeReads(state: FakeState, now: () => number) {
  return {
    'app.info': () => ok(state.info),
    'connections.list': () => ok(state.connections),
    'keys.list': () => ok(state.keys),
    'combos.list': () => ok(state.combos),
    'routes.list': () => ok(state.routes),
    'sessions.list': () => ok(state.pins),
    'leases.list': () => ok(state.leases),
    'settings.get': () => ok(state.settings),
    'resilience.getSettings': () => ok(state.resilienceSettings),
    'cooldowns.list': () => ok({ ...state.cooldowns, now: now() }),
    'queues.list': () => ok(state.queues),
    'claude.status': () => ok(state.claude),
    'activity.list': ({ beforeId, limit } = {}) =>
      ok(
        [...state.activity]
          .filter((e) => beforeId === undefined || e.id < beforeId)
          .sort((a, b) => b.id - a.id)
          .slice(0, limit ?? 100),
      ),
    'activity.summary': () =>
      ok({ requestsToday: state.activity.length, errorsToday: state.activity.filter((e) => e.status >= 400).length }),
    'quota.listPools': () => ok(state.quotaPools),
    'quota.listPlans': () => ok(state.quotaPlans),
    'setup.claudeCodeStatus': () => ok(state.claudeCode.status),
    'activity.exportCsv': () =>
      ok({
        filename: 'leeway-activity-fake.csv',
        csv: ['id,status,connection', ...state.activity.map((e) => `${e.id},${e.status},${e.connection ?? ''}`)].join(
          '\r\n',
        ),
        rows: state.activity.length,
        truncated: false,
      }),
    'quota.poolUsage': ({ id }) => {
      const pool = state.quotaPools.find((p) => p.id === id || p.name === id);
      const at = now();
      return ok(
        state.quotaUsage[pool?.id ?? id] ?? {
          poolId: id,
          name: pool?.name ?? id,
          at,
          saturationThreshold: 0.5,
          dimensions: [],
        },
      );
    },
    'quota.storeStatus': () => ok(state.quotaStoreStatus),
    'overview.series': ({ range }) => ok(state.overview[range] ?? emptySeries(range, now())),
    'overview.usage': () => ok({ ...state.overviewUsage, at: now() }),
    'models.discovered': (input) =>
      ok(state.discovered.filter((d) => input?.connection === undefined || d.connection === input.connection)),
    'setup.claudeCodePreview': () => ok(state.claudeCode.change),
    'connections.test': () => ok({ ok: true, status: 200, latencyMs: 42, message: 'Connected in 42 ms', models: [] }),
  } satisfies Partial<FakeHandlers>;
}
