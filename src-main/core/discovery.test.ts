import { afterEach, describe, expect, it } from 'vitest';
import { connectionInputSchema } from '../../src-shared/domain/connection';
import { createEventBus } from '../kernel/event-bus';
import { createConnectionsRepo } from '../db/connections-repo';
import { createDiscoveredModelsRepo } from '../db/discovered-models-repo';
import { createModelDiscovery } from './discovery';
import { REFRESH_INTERVAL_MS, RETRY_AFTER_FAILURE_MS } from '../providers/models-discovery';
import { createUpstreamPools } from '../providers/upstream-pools';
import { type Catalog } from '../kernel/catalog';
import { buildCatalog } from '../routing/build-catalog';
import type { SecretBox } from '../secrets/secret-box';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { createMemoryDb } from '../testing/temp-db';

const box: SecretBox = { kind: 'fake', seal: (plain) => plain, open: (sealed) => sealed };
const T0 = 1_800_000_000_000;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A discovery over a real fake upstream, a migrated database and a clock the test moves. */
async function harness() {
  const fake: FakeUpstream = await startFakeUpstream({ format: 'openai', name: 'glm', models: ['glm-4.6'] });
  const db = createMemoryDb();
  const pools = createUpstreamPools();
  const connections = createConnectionsRepo(db, box);
  const events = createEventBus();
  const clock = { t: T0 };
  const logs: string[] = [];
  let changes = 0;
  let catalog: Catalog = buildCatalog([], []);
  const discovery = createModelDiscovery({
    pools,
    catalog: () => catalog,
    changed: () => {
      changes += 1;
      reload();
    },
    log: (line) => logs.push(line),
    now: () => clock.t,
    automatic: true,
  });
  const reload = () => {
    catalog = buildCatalog(
      connections.list().map((c) => ({ view: c, secret: c.secret, discovered: discovery.modelsFor(c) })),
      [],
    );
  };
  const add = (name: string) =>
    connections.upsert(
      connectionInputSchema.parse({
        name,
        kind: 'openai-compatible',
        baseUrl: `${fake.url}/v1`,
        secret: { type: 'api-key', apiKey: 'sk-glm-000000' },
      }),
      clock.t,
    );
  add('g1');
  reload();
  cleanups.push(
    () => fake.close(),
    () => pools.close(),
    () => {
      db.close();
    },
    () => discovery.stop(),
  );
  const modelsRequests = () => fake.requests.filter((r) => r.path === '/v1/models').length;
  return {
    fake,
    db,
    events,
    clock,
    logs,
    discovery,
    add,
    reload,
    modelsRequests,
    changes: () => changes,
    catalog: () => catalog,
  };
}

describe('model discovery in the core (issue 13 §5)', () => {
  it('asks on start, then hourly by the clock it is given; the catalog is rebuilt only when the list changed', async () => {
    const h = await harness();
    h.discovery.start(createDiscoveredModelsRepo(h.db), h.events);
    await h.discovery.refresh();
    expect(h.modelsRequests()).toBe(1);
    expect(
      h
        .catalog()
        .byName.get('g1')
        ?.discovered.map((m) => m.id),
    ).toEqual(['glm-4.6']);
    const changesAfterStart = h.changes();

    h.clock.t = T0 + REFRESH_INTERVAL_MS - 1;
    await h.discovery.refresh();
    expect(h.modelsRequests()).toBe(1);
    h.clock.t = T0 + REFRESH_INTERVAL_MS;
    await h.discovery.refresh();
    expect(h.modelsRequests()).toBe(2);
    // Same list again: nothing for the catalog to rebuild.
    expect(h.changes()).toBe(changesAfterStart);
  });

  it('a failing upstream keeps the last list, logs once, and is retried after RETRY_AFTER_FAILURE_MS', async () => {
    const h = await harness();
    h.discovery.start(createDiscoveredModelsRepo(h.db), h.events);
    await h.discovery.refresh();
    h.fake.setDefault({ kind: 'status', status: 500 });
    h.clock.t = T0 + REFRESH_INTERVAL_MS;
    await h.discovery.refresh();
    expect(
      h
        .catalog()
        .byName.get('g1')
        ?.discovered.map((m) => m.id),
    ).toEqual(['glm-4.6']);
    expect(h.logs.filter((l) => l.includes('could not list the models of g1'))).toHaveLength(1);
    h.clock.t += RETRY_AFTER_FAILURE_MS - 1;
    await h.discovery.refresh();
    expect(h.modelsRequests()).toBe(2);
    h.clock.t += 1;
    await h.discovery.refresh();
    expect(h.modelsRequests()).toBe(3);
    expect(h.logs.filter((l) => l.includes('could not list the models of g1'))).toHaveLength(1);
  });

  it('a new connection is asked after connections.changed; after stop nothing is asked', async () => {
    const h = await harness();
    h.discovery.start(createDiscoveredModelsRepo(h.db), h.events);
    await h.discovery.refresh();
    h.add('g2');
    h.reload();
    h.events.emit('connections.changed', { connections: [] });
    await new Promise((r) => setImmediate(r));
    await h.discovery.refresh();
    expect(h.modelsRequests()).toBe(2);
    expect(
      h
        .catalog()
        .byName.get('g2')
        ?.discovered.map((m) => m.id),
    ).toEqual(['glm-4.6']);
    h.discovery.stop();
    h.add('g3');
    h.reload();
    await h.discovery.refresh();
    expect(h.modelsRequests()).toBe(2);
  });
});
