import type { ComboView } from '../../src-shared/domain/combo';
import type { Route } from '../../src-shared/domain/route';
import type { ConnectionSecret, ConnectionView } from '../../src-shared/domain/connection';
import type { ProviderAdapter } from '../providers/adapter';
import type { DiscoveredModel } from '../providers/models-discovery';
import { adapterFor } from '../providers/registry';
import { providerIdentity, type ProviderIdentity } from '../resilience/provider-identity';

/** A connection ready for the hot path: secret decrypted once, URL split once. */
export interface RuntimeConnection {
  view: ConnectionView;
  secret: ConnectionSecret | null;
  adapter: ProviderAdapter;
  /** scheme://host:port of the upstream. */
  origin: string;
  /** Path prefix of the base URL, kept in front of every operation path ("" or "/api/paas/v4"). */
  basePath: string;
  /** Resilience identity (kind@origin and profile), computed once instead of per request. */
  provider: ProviderIdentity;
  /** EGRESS: the outbound proxy URL with its credentials, or null for direct. */
  outboundProxy: string | null;
  /**
   * Issue 13 §5: what the upstream's own models list said, for a connection that serves any model
   * (empty otherwise). Names to offer clients; it never restricts what the connection serves.
   */
  discovered: readonly DiscoveredModel[];
  /** The same ids as a set, for the per-request lookup. */
  discoveredIds: ReadonlySet<string>;
}

/** Everything routing needs, rebuilt only when connections or combos change. */
export interface Catalog {
  connections: RuntimeConnection[];
  byName: ReadonlyMap<string, RuntimeConnection>;
  combos: ReadonlyMap<string, ComboView>;
  /** Model routes in order; the first whose glob matches decides (after exact combo/connection names). */
  routes: readonly Route[];
  /** The quota pools' system combos by name (`qtSd/<pool>`, ROUTE-10): generated, never stored or edited. */
  systemCombos: ReadonlyMap<string, SystemCombo>;
}

/** The name prefix of a pool's system combo (ROUTE-10). */
export const SYSTEM_COMBO_PREFIX = 'qtSd/';

/**
 * A pool spanning several connections becomes a combo the client can name, `qtSd/<pool>`, ordered by
 * the internal `quota-share` strategy (ROUTE-10/11) instead of a public one. `view.strategy` is only
 * the shape's placeholder: the plan stage never lets a public strategy order these targets.
 */
export interface SystemCombo {
  view: ComboView;
  strategy: 'quota-share';
  poolId: string;
  /** DRR weight per connection id (ROUTE-11); equal when nothing says otherwise. */
  weights: ReadonlyMap<string, number>;
}

/** What the catalog needs of a pool to give it a system combo. */
export interface PoolForCatalog {
  id: string;
  name: string;
  connectionIds: readonly string[];
  weights?: ReadonlyMap<string, number>;
}

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
