import { fail, ok, type Result } from '../../src-shared/contract/errors';
import type { MethodOutput, MethodParsedInput } from '../../src-shared/contract/methods';
import {
  QUOTA_WINDOW_MS,
  type QuotaAllocationView,
  type QuotaDimension,
  type QuotaPlanView,
  type QuotaPoolUsage,
  type QuotaPoolView,
  type QuotaStoreStatus,
} from '../../src-shared/domain/quota';
import type { FakeState } from './fake-handlers';

type QuotaMethod =
  | 'quota.listPools'
  | 'quota.upsertPool'
  | 'quota.removePool'
  | 'quota.poolUsage'
  | 'quota.listPlans'
  | 'quota.setPlan'
  | 'quota.removePlan'
  | 'quota.storeStatus';
type Handlers = { [M in QuotaMethod]: (input: MethodParsedInput<M>) => Result<MethodOutput<M>> };

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

const refuse = (path: string, message: string) =>
  fail('invalid_input', `${path}: ${message}`, { details: { issues: [{ path, message }] } });

/** A zero-usage snapshot from the pool's dimensions, for pools a test did not seed usage for. */
export function idleUsage(pool: QuotaPoolView, at: number, threshold: number): QuotaPoolUsage {
  return {
    poolId: pool.id,
    name: pool.name,
    at,
    saturationThreshold: pool.saturationThreshold ?? threshold,
    dimensions: pool.effectiveDimensions.map((d) => ({
      dimensionKey: `${pool.id}:${d.unit}:${d.window}`,
      unit: d.unit,
      window: d.window,
      windowMs: QUOTA_WINDOW_MS[d.window],
      limit: d.limit,
      consumedTotal: 0,
      globalUsedPercent: 0,
      saturationSource: 'counter',
      mode: 'generous',
      keys: pool.allocations.map((a) => ({
        keyId: a.keyId,
        key: a.key,
        policy: a.policy,
        effectiveWeight: a.effectiveWeight,
        consumed: 0,
        fairShare: (d.limit * a.effectiveWeight) / 100,
        remaining: (d.limit * a.effectiveWeight) / 100,
        deficit: -(d.limit * a.effectiveWeight) / 100,
        borrowing: false,
        decision: 'allow',
      })),
      burnRate: { perSecond: 0, timeToExhaustionMs: null, samples: 0 },
      history: [],
    })),
  };
}

/**
 * Pools, usage and plans over the fake's memory. Refuses unknown keys and connections with their
 * path as the core does; usage is whatever a test seeded in `state.quotaUsage`, else idle.
 */
export function createFakeQuotaHandlers(state: FakeState, now: () => number): Handlers {
  let nextId = 1;
  const planOf = (connection: string): QuotaPlanView =>
    state.quotaPlans.find((p) => p.connection === connection) ?? {
      connection,
      catalogProvider: null,
      source: 'none',
      dimensions: [],
      catalogDimensions: [],
    };
  const effective = (
    own: QuotaDimension[],
    first: string | undefined,
  ): Pick<QuotaPoolView, 'effectiveDimensions' | 'dimensionsSource'> => {
    if (own.length > 0) return { effectiveDimensions: own, dimensionsSource: 'pool' };
    const plan = first === undefined ? null : planOf(first);
    if (!plan || plan.source === 'none') return { effectiveDimensions: [], dimensionsSource: 'none' };
    return {
      effectiveDimensions: plan.dimensions,
      dimensionsSource: plan.source === 'manual' ? 'manual-plan' : 'catalog',
    };
  };
  const replacePlan = (view: QuotaPlanView): QuotaPlanView => {
    state.quotaPlans = [...state.quotaPlans.filter((p) => p.connection !== view.connection), view];
    return view;
  };

  return {
    'quota.listPools': () => ok(state.quotaPools),
    'quota.upsertPool': (spec) => {
      const known = new Set(state.connections.map((c) => c.name));
      const badConnection = spec.connections.findIndex((c) => !known.has(c));
      if (badConnection >= 0)
        return refuse(`connections.${badConnection}`, `no connection named "${spec.connections[badConnection] ?? ''}"`);
      const keys = new Map(state.keys.filter((k) => k.revokedAt === null).map((k) => [k.name, k.id]));
      const badKey = spec.allocations.findIndex((a) => !keys.has(a.key));
      if (badKey >= 0)
        return refuse(`allocations.${badKey}.key`, `no key named "${spec.allocations[badKey]?.key ?? ''}"`);
      const equal = spec.allocations.every((a) => a.weight === 0);
      const allocations: QuotaAllocationView[] = spec.allocations.map((a) => ({
        keyId: keys.get(a.key) ?? a.key,
        key: a.key,
        weight: a.weight,
        effectiveWeight: equal ? 100 / spec.allocations.length : a.weight,
        policy: a.policy,
        capValue: a.capValue,
        capUnit: a.capUnit,
      }));
      const existing = state.quotaPools.find((p) => p.name === spec.name);
      const t = now();
      const view: QuotaPoolView = {
        id: existing?.id ?? `pool-${nextId++}`,
        name: spec.name,
        connections: spec.connections,
        dimensions: spec.dimensions,
        ...effective(spec.dimensions, spec.connections[0]),
        allocations,
        saturationThreshold: spec.saturationThreshold,
        createdAt: existing?.createdAt ?? t,
        updatedAt: t,
      };
      state.quotaPools = existing
        ? state.quotaPools.map((p) => (p.id === view.id ? view : p))
        : [...state.quotaPools, view];
      return ok(view);
    },
    'quota.removePool': ({ name }) => {
      const before = state.quotaPools.length;
      state.quotaPools = state.quotaPools.filter((p) => p.name !== name);
      return ok({ removed: state.quotaPools.length < before });
    },
    'quota.poolUsage': ({ id }) => {
      const pool = state.quotaPools.find((p) => p.id === id || p.name === id);
      if (!pool) return fail('not_found', `No pool "${id}"`);
      return ok(state.quotaUsage[pool.id] ?? idleUsage(pool, now(), state.quotaStoreStatus.saturationThreshold));
    },
    'quota.listPlans': () => ok(state.connections.map((c) => planOf(c.name))),
    'quota.setPlan': ({ connection, dimensions }) => {
      if (!state.connections.some((c) => c.name === connection))
        return refuse('connection', `no connection named "${connection}"`);
      return ok(replacePlan({ ...planOf(connection), source: 'manual', dimensions }));
    },
    'quota.removePlan': ({ connection }) => {
      const plan = planOf(connection);
      const fallback = plan.catalogDimensions.length > 0 && plan.catalogProvider !== null;
      return ok(
        replacePlan({
          ...plan,
          source: fallback ? 'catalog' : 'none',
          dimensions: fallback ? plan.catalogDimensions : [],
        }),
      );
    },
    'quota.storeStatus': () => ok(state.quotaStoreStatus),
  };
}
