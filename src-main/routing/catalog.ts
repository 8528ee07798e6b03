import type { ComboView } from '../../src-shared/domain/combo';
import type { Route } from '../../src-shared/domain/route';
import type { ConnectionSecret, ConnectionView } from '../../src-shared/domain/connection';
import type { ProviderAdapter } from '../providers/adapter';
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
}

/** Everything routing needs, rebuilt only when connections or combos change. */
export interface Catalog {
  connections: RuntimeConnection[];
  byName: ReadonlyMap<string, RuntimeConnection>;
  combos: ReadonlyMap<string, ComboView>;
  /** Model routes in order; the first whose glob matches decides (after exact combo/connection names). */
  routes: readonly Route[];
}

export function toRuntimeConnection(view: ConnectionView, secret: ConnectionSecret | null): RuntimeConnection {
  const url = new URL(view.effectiveBaseUrl);
  return {
    view,
    secret,
    adapter: adapterFor(view.kind),
    origin: url.origin,
    basePath: url.pathname.replace(/\/+$/, ''),
    provider: providerIdentity(view.kind, url.origin),
  };
}

export function buildCatalog(
  connections: readonly { view: ConnectionView; secret: ConnectionSecret | null }[],
  combos: readonly ComboView[],
  routes: readonly Route[] = [],
): Catalog {
  const runtime = connections
    .map((c) => toRuntimeConnection(c.view, c.secret))
    .sort((a, b) => a.view.priority - b.view.priority || a.view.name.localeCompare(b.view.name));
  return {
    connections: runtime,
    byName: new Map(runtime.map((c) => [c.view.name, c])),
    combos: new Map(combos.map((c) => [c.name, c])),
    routes,
  };
}
