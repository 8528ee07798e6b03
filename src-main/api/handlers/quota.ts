import { fail, ok, type Result } from '../../../src-shared/contract/errors';
import type { QuotaDimension, QuotaPlanView } from '../../../src-shared/domain/quota';
import type { StoredConnection } from '../../db/connections-repo';
import { catalogProviderOf, PLAN_CATALOG } from '../../quota/engine/plan-catalog';
import { resolvePlan } from '../../quota/engine/plan-resolve';
import type { Handlers } from '../router';
import type { HandlerDeps } from './handler-deps';

type QuotaHandlers = Pick<
  Handlers,
  | 'quota.listPools'
  | 'quota.upsertPool'
  | 'quota.removePool'
  | 'quota.poolUsage'
  | 'quota.listPlans'
  | 'quota.setPlan'
  | 'quota.removePlan'
  | 'quota.storeStatus'
>;

/** QPLAN-1/3 for one connection: the plan in force, where it comes from, and what the catalog would give. */
export function planViewOf(
  connection: Pick<StoredConnection, 'id' | 'name' | 'kind' | 'baseUrl'>,
  overrides: ReadonlyMap<string, QuotaDimension[]>,
): QuotaPlanView {
  const provider = catalogProviderOf(connection);
  const plan = resolvePlan(overrides.get(connection.id), provider);
  return {
    connection: connection.name,
    catalogProvider: provider,
    source: plan.source,
    dimensions: plan.dimensions,
    catalogDimensions: provider === null ? [] : PLAN_CATALOG[provider].map((d) => ({ ...d })),
  };
}

/**
 * Pools, plans and the counter store (issue 10 §5): writes go to SQLite, and the engine's index
 * follows the pools' change event (issue 22). No quota event exists in the contract yet; the
 * dashboard re-reads after its own writes and polls (QUI-9).
 */
export function quotaHandlers(deps: HandlerDeps): QuotaHandlers {
  /** A connection named by name or id, as `PUT /api/quota/plans/:connection` may give either. */
  const connectionOf = (nameOrId: string): Result<StoredConnection> => {
    const found = deps.connections.getByName(nameOrId) ?? deps.connections.getById(nameOrId);
    return found ? ok(found) : fail('not_found', `No connection named "${nameOrId}"`);
  };

  return {
    'quota.listPools': () => ok(deps.quotaPools.list()),
    'quota.upsertPool': (spec) => deps.quotaPools.upsert(spec, deps.now()),
    'quota.removePool': ({ name }) => {
      if (!deps.quotaPools.remove(name)) return fail('not_found', `No quota pool named "${name}"`);
      return ok({ removed: true });
    },
    'quota.poolUsage': async ({ id }) => {
      const usage = await deps.quota.usage(id, deps.now());
      return usage ? ok(usage) : fail('not_found', `No quota pool "${id}"`);
    },
    'quota.listPlans': () => {
      const overrides = deps.quotaPools.plans();
      return ok(deps.connections.list().map((c) => planViewOf(c, overrides)));
    },
    'quota.setPlan': ({ connection, dimensions }) => {
      const found = connectionOf(connection);
      if (!found.ok) return found;
      deps.quotaPools.setPlan(found.value.id, dimensions, deps.now());
      return ok(planViewOf(found.value, deps.quotaPools.plans()));
    },
    'quota.removePlan': ({ connection }) => {
      const found = connectionOf(connection);
      if (!found.ok) return found;
      // Idempotent: without an override the answer is simply the plan it already falls back to (QUI-15).
      deps.quotaPools.removePlan(found.value.id);
      return ok(planViewOf(found.value, deps.quotaPools.plans()));
    },
    'quota.storeStatus': () => ok(deps.quota.storeStatus()),
  };
}
