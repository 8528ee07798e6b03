import type { ComboView } from '../../src-shared/domain/combo';
import type { ConnectionSecret, ConnectionView } from '../../src-shared/domain/connection';
import type { Route } from '../../src-shared/domain/route';
import {
  SYSTEM_COMBO_PREFIX,
  type Catalog,
  type PoolForCatalog,
  type RuntimeConnection,
  type SystemCombo,
} from '../kernel/catalog';
import type { DiscoveredModel } from '../kernel/discovered-model';
import { providerIdentity } from '../kernel/provider-identity';
import { adapterFor } from '../providers/registry';

/*
 * Builds the runtime catalog (kernel/catalog.ts) from stored rows: each connection with its
 * adapter, split URL and provider identity, the combos, routes and the pools' system combos.
 */
export function toRuntimeConnection(
  view: ConnectionView,
  secret: ConnectionSecret | null,
  outboundProxy: string | null = null,
  discoveredModels: readonly DiscoveredModel[] = [],
): RuntimeConnection {
  const url = new URL(view.effectiveBaseUrl);
  // A connection that lists its own models is taken at its word: discovery only fills empty lists.
  const discovered = view.models.length === 0 ? discoveredModels : [];
  return {
    view,
    secret,
    adapter: adapterFor(view.kind),
    origin: url.origin,
    basePath: url.pathname.replace(/\/+$/, ''),
    provider: providerIdentity(view.kind, url.origin),
    outboundProxy,
    discovered,
    discoveredIds: new Set(discovered.map((m) => m.id)),
  };
}

export function buildCatalog(
  connections: readonly {
    view: ConnectionView;
    secret: ConnectionSecret | null;
    outboundProxy?: string;
    discovered?: readonly DiscoveredModel[];
  }[],
  combos: readonly ComboView[],
  routes: readonly Route[] = [],
  pools: readonly PoolForCatalog[] = [],
): Catalog {
  const runtime = connections
    .map((c) => toRuntimeConnection(c.view, c.secret, c.outboundProxy ?? null, c.discovered))
    .sort((a, b) => a.view.priority - b.view.priority || a.view.name.localeCompare(b.view.name));
  return {
    connections: runtime,
    byName: new Map(runtime.map((c) => [c.view.name, c])),
    combos: new Map(combos.map((c) => [c.name, c])),
    routes,
    systemCombos: systemCombosOf(runtime, pools),
  };
}

/** ROUTE-10: every pool with at least two known connections gets its `qtSd/<pool>` combo. */
function systemCombosOf(
  connections: readonly RuntimeConnection[],
  pools: readonly PoolForCatalog[],
): ReadonlyMap<string, SystemCombo> {
  const out = new Map<string, SystemCombo>();
  if (pools.length === 0) return out;
  const byId = new Map(connections.map((c) => [c.view.id, c.view.name]));
  for (const pool of pools) {
    const names = pool.connectionIds.map((id) => byId.get(id)).filter((n): n is string => n !== undefined);
    if (names.length < 2) continue;
    const name = `${SYSTEM_COMBO_PREFIX}${pool.name}`;
    out.set(name, {
      view: {
        id: `system:${pool.id}`,
        name,
        targets: names.map((connection) => ({ connection, model: null })),
        strategy: 'priority',
        createdAt: 0,
        updatedAt: 0,
      },
      strategy: 'quota-share',
      poolId: pool.id,
      weights: pool.weights ?? new Map(),
    });
  }
  return out;
}
