import type { ComboView } from '../../src-shared/domain/combo';
import type { Route } from '../../src-shared/domain/route';
import type { ConnectionSecret, ConnectionView } from '../../src-shared/domain/connection';
import type { ProviderAdapter } from './provider-adapter';
import type { DiscoveredModel } from './discovered-model';
import type { ProviderIdentity } from './provider-identity';

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
