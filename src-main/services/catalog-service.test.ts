import { describe, expect, it } from 'vitest';
import type { ConnectionView } from '../../src-shared/domain/connection';
import type { StoredConnection } from '../db/connections-repo';
import { createChangeFeed } from '../kernel/change-feed';
import type { StorageChange } from '../db/storage-changes';
import { createCatalogService } from './catalog-service';

const view = (name: string): StoredConnection => ({
  id: `id-${name}`,
  name,
  kind: 'anthropic',
  baseUrl: null,
  effectiveBaseUrl: 'https://api.anthropic.com',
  models: [],
  modelAliases: {},
  priority: 1,
  enabled: true,
  maxConcurrent: null,
  disableCooling: false,
  providerSpecificData: {},
  secretHint: null,
  secret: { type: 'api-key', apiKey: `sk-ant-${name}-000000000` },
  createdAt: 0,
  updatedAt: 0,
});

/** A catalog service over sources in memory, counting its reads of the connections and the quota reloads. */
function harness() {
  const changes = createChangeFeed<StorageChange>();
  const stored: StoredConnection[] = [];
  const counts = { builds: 0, quotaReloads: 0 };
  const catalog = createCatalogService({
    changes,
    sources: {
      connections: () => {
        counts.builds += 1;
        return [...stored];
      },
      combos: () => [],
      routes: () => [],
      discovered: (_: ConnectionView) => [],
    },
    quota: { reload: () => void (counts.quotaReloads += 1), catalogPools: () => [] },
    log: (line) => {
      throw new Error(line);
    },
  });
  return { changes, stored, counts, catalog };
}

describe('the catalog service (issue 22)', () => {
  it('builds once at creation, then once per burst of changes, on the next microtask', async () => {
    const h = harness();
    expect(h.counts).toEqual({ builds: 1, quotaReloads: 1 });
    h.stored.push(view('a'));
    h.changes.emit('connections');
    h.changes.emit('combos');
    h.changes.emit('keys');
    expect(h.counts.builds).toBe(1);
    await Promise.resolve();
    expect(h.counts).toEqual({ builds: 2, quotaReloads: 2 });
    expect(h.catalog.get().byName.has('a')).toBe(true);
    expect(h.counts.builds).toBe(2);
  });

  it('a read right after a write sees it at once (the pending rebuild runs first), and is not rebuilt again', async () => {
    const h = harness();
    h.stored.push(view('b'));
    h.changes.emit('connections');
    expect(h.catalog.get().byName.has('b')).toBe(true);
    await Promise.resolve();
    expect(h.counts.builds).toBe(2);
  });

  it('combos, routes and discovered models rebuild the catalog only; connections, keys and pools reload the quota index first', async () => {
    const h = harness();
    for (const topic of ['combos', 'routes', 'discoveredModels'] as const) h.changes.emit(topic);
    await Promise.resolve();
    expect(h.counts).toEqual({ builds: 2, quotaReloads: 1 });
    h.changes.emit('quotaPools');
    await Promise.resolve();
    expect(h.counts).toEqual({ builds: 3, quotaReloads: 2 });
  });

  it('after close it follows nothing more and keeps the last catalog readable', async () => {
    const h = harness();
    h.stored.push(view('c'));
    h.changes.emit('connections');
    h.catalog.close();
    await Promise.resolve();
    h.changes.emit('connections');
    expect(h.catalog.get().byName.has('c')).toBe(false);
    expect(h.counts.builds).toBe(1);
  });
});
