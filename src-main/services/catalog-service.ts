import type { ComboView } from '../../src-shared/domain/combo';
import type { ConnectionView } from '../../src-shared/domain/connection';
import type { Route } from '../../src-shared/domain/route';
import type { Catalog, PoolForCatalog } from '../kernel/catalog';
import type { DiscoveredModel } from '../kernel/discovered-model';
import type { StoredConnection } from '../db/connections-repo';
import type { StorageChange, StorageChanges } from '../db/storage-changes';
import { buildCatalog } from '../routing/build-catalog';

/** What the runtime catalog is built from, read afresh at each rebuild. */
export interface CatalogSources {
  connections(): StoredConnection[];
  combos(): ComboView[];
  routes(): Route[];
  /** The models a connection's upstream listed (model discovery's memory). */
  discovered(view: ConnectionView): readonly DiscoveredModel[];
}

/** The quota engine's part: its index follows pools, keys and connections; the catalog shows its pools' combos. */
export interface CatalogQuota {
  reload(): void;
  catalogPools(): PoolForCatalog[];
}

export interface CatalogService {
  /** The catalog in force; a change announced but not yet applied is applied first, so a write is seen at once. */
  get(): Catalog;
  /** Stops following the changes (stop, a lost data directory); the last catalog stays readable. */
  close(): void;
}

/** The changes the quota index is built from; combos, routes and discovered models touch only the catalog. */
const QUOTA_SOURCES: ReadonlySet<StorageChange> = new Set(['connections', 'keys', 'quotaPools']);

/**
 * The runtime catalog rebuilt from the repositories' change events (issue 22): a burst of writes
 * (a rename touching connections, combos, keys and routes; a config file) costs one rebuild, on
 * the microtask after it or at the first read, whichever comes first. The quota index reloads
 * first when its sources moved, since the catalog lists the pools' `qtSd/` combos.
 */
export function createCatalogService(deps: {
  changes: StorageChanges;
  sources: CatalogSources;
  quota: CatalogQuota;
  log(line: string): void;
}): CatalogService {
  const { sources, quota } = deps;
  let catalog: Catalog = buildCatalog([], []);
  let dirty = false;
  let quotaDirty = false;
  let scheduled = false;

  const rebuild = (): void => {
    dirty = false;
    const reloadQuota = quotaDirty;
    quotaDirty = false;
    try {
      if (reloadQuota) quota.reload();
      catalog = buildCatalog(
        sources.connections().map((c) => ({
          view: c,
          secret: c.secret,
          discovered: sources.discovered(c),
          ...(c.outboundProxy ? { outboundProxy: c.outboundProxy } : {}),
        })),
        sources.combos(),
        sources.routes(),
        quota.catalogPools(),
      );
    } catch (error) {
      // A read that failed keeps the last catalog serving; the next change tries again.
      deps.log(
        `Leeway: could not rebuild the routing catalog (${error instanceof Error ? error.message : String(error)})`,
      );
    }
  };

  quotaDirty = true;
  rebuild();
  const unsubscribe = deps.changes.subscribe((topic) => {
    dirty = true;
    if (QUOTA_SOURCES.has(topic)) quotaDirty = true;
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      if (dirty) rebuild();
    });
  });

  return {
    get() {
      if (dirty) rebuild();
      return catalog;
    },
    close() {
      unsubscribe();
      dirty = false;
    },
  };
}
