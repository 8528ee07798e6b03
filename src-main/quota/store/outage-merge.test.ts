import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSqliteQuotaStore } from '../../core/sqlite-quota-store';
import { redisUnavailableReason, startRedisServer, type RedisServer } from '../../testing/redis-server';
import { createTempDb, type TempDb } from '../../testing/temp-db';
import type { DimensionRef } from '../quota-ports';
import { createOutageJournal } from './outage-journal';
import { createRedisQuotaStore } from './redis-store';
import { createQuotaStoreFactory, type SwitchingQuotaStore } from './store-factory';

const HOUR = 3_600_000;
const DIM: DimensionRef = { key: 'pool-1:requests:hourly', windowMs: HOUR };
const T0 = 500_000 * HOUR;
const FAST = { redisOptions: { retryStrategy: (n: number) => Math.min(n * 50, 200) }, probeMaxMs: 200, now: () => T0 };
const skip = redisUnavailableReason();
const opened: Array<{ store: SwitchingQuotaStore; temp: TempDb }> = [];

function open(url: string): SwitchingQuotaStore {
  const temp = createTempDb();
  const store = createQuotaStoreFactory({
    openLocal: (log) => createSqliteQuotaStore(temp.db, { log }),
    config: () => ({ driver: 'redis', redisUrl: url }),
    log: () => undefined,
    ...FAST,
  });
  opened.push({ store, temp });
  return store;
}

/** `n` consumes of 1 spread over both instances, all at once (mid-traffic). */
const traffic = (stores: SwitchingQuotaStore[], n: number, at: number): Promise<number[]> =>
  Promise.all(Array.from({ length: n }, (_, i) => stores[i % stores.length]!.consume('alice', DIM, 1, at + i)));

afterEach(async () => {
  for (const { store, temp } of opened.splice(0)) {
    await store.close();
    temp.close();
  }
});

describe.skipIf(skip !== null)(`quota outage merge on a real redis-server${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let server: RedisServer;
  let admin: Redis;
  beforeAll(async () => {
    server = await startRedisServer();
    admin = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    admin.on('error', () => undefined);
  });
  afterAll(async () => {
    admin.disconnect();
    await server.dispose();
  });

  const bucket = `leeway:quota:alice:${DIM.key}:${T0 / HOUR}`;

  it('ISSUE-24 QDRV-6: Redis killed and restarted (data kept) mid-traffic: the outage counts are neither lost nor doubled', async () => {
    await admin.flushdb();
    const a = open(server.url);
    const b = open(server.url);
    await Promise.all([a.ready(), b.ready()]);
    await traffic([a, b], 300, T0);
    await expect(admin.get(bucket)).resolves.toBe('300');
    await admin.save();
    await server.stop();
    // During the outage each instance continues from the shared 300 (mirrored), not from 0.
    const during = await traffic([a, b], 200, T0 + 1_000);
    expect(Math.max(...during)).toBe(400);
    await server.restart();
    await vi.waitFor(() => expect([a.status().active, b.status().active]).toEqual(['redis', 'redis']), {
      timeout: 10_000,
      interval: 50,
    });
    await expect(admin.get(bucket)).resolves.toBe('500');
    await expect(a.consume('alice', DIM, 1, T0 + 2_000)).resolves.toBe(501);
    await expect(b.peek('alice', DIM, T0 + 2_000)).resolves.toBe(501);
  }, 30_000);

  it('ISSUE-24 QDRV-6: Redis restarted empty: each instance gives back what it saw, the team total is exact', async () => {
    await admin.flushdb();
    const a = open(server.url);
    const b = open(server.url);
    await Promise.all([a.ready(), b.ready()]);
    await traffic([a, b], 100, T0);
    // Each instance's last read of the pool (the request path reads before it consumes) mirrors 100;
    // what Redis counted after an instance's last read is what an empty restart can lose.
    await Promise.all([a.readMany(['alice'], [DIM], T0 + 500), b.readMany(['alice'], [DIM], T0 + 500)]);
    // An empty snapshot: the restart below comes back with no data at all.
    await admin.flushdb();
    await admin.save();
    await server.stop();
    await traffic([a, b], 60, T0 + 1_000);
    await server.restart();
    await vi.waitFor(() => expect([a.status().active, b.status().active]).toEqual(['redis', 'redis']), {
      timeout: 10_000,
      interval: 50,
    });
    // 100 before (lost by Redis, known to both mirrors) + 30 + 30 during the outage.
    await vi.waitFor(async () => expect(await admin.get(bucket)).toBe('160'), { timeout: 5_000, interval: 50 });
    await expect(admin.get(bucket)).resolves.toBe('160');
  }, 30_000);

  it('ISSUE-24: a consume that timed out but ran after all is not replayed a second time', async () => {
    await admin.flushdb();
    const a = open(server.url);
    await a.ready();
    await a.consume('alice', DIM, 5, T0);
    await admin.call('CLIENT', 'PAUSE', '600', 'WRITE');
    // The paused consume times out on Redis and is served (and journaled) by SQLite.
    const fast = createQuotaStoreFactory({
      openLocal: (log) => createSqliteQuotaStore(opened[0]!.temp.db, { log }),
      config: () => ({ driver: 'redis', redisUrl: server.url }),
      log: () => undefined,
      ...FAST,
      redisOptions: { ...FAST.redisOptions, commandTimeout: 200 },
    });
    opened.push({ store: fast, temp: createTempDb() });
    await fast.ready();
    await fast.consume('alice', DIM, 3, T0 + 1);
    expect(fast.status().active).toBe('sqlite');
    await vi.waitFor(() => expect(fast.status().active).toBe('redis'), { timeout: 10_000, interval: 50 });
    // Redis ran the paused consume when the pause ended; its marker made the replay a no-op.
    await expect(admin.get(bucket)).resolves.toBe('8');
  }, 30_000);

  it('ISSUE-24 QDRV-6: consumes whose outcome was unknown, replayed one by one into a Redis restarted empty, give back exactly what this instance saw', async () => {
    await admin.flushdb();
    const temp = createTempDb();
    const local = createSqliteQuotaStore(temp.db, { log: () => undefined });
    const client = new Redis(server.url, { maxRetriesPerRequest: 0 });
    try {
      // SQLite mirrored Redis's 5; then 10 consumes of 1 timed out on Redis and were served by SQLite.
      local.mirror('alice', DIM, T0, 0, 5);
      const journal = createOutageJournal();
      for (let i = 0; i < 10; i++) {
        await local.consume('alice', DIM, 1, T0 + i);
        journal.record('alice', DIM, 1, T0 + i, journal.nextId());
      }
      expect(journal.size()).toBe(10);
      await expect(journal.drain(createRedisQuotaStore(client), local, T0 + 20)).resolves.toBe(true);
      // Each replay is raised only to the total less what is still to come: 15, not 15 + 9.
      await expect(admin.get(bucket)).resolves.toBe('15');
      // Redis kept its data instead (5 there): the same deltas make it exactly 15 too.
      await admin.set(bucket, '5');
      const again = createOutageJournal();
      for (let i = 0; i < 10; i++) again.record('alice', DIM, 1, T0 + i, again.nextId());
      await expect(again.drain(createRedisQuotaStore(client), local, T0 + 20)).resolves.toBe(true);
      await expect(admin.get(bucket)).resolves.toBe('15');
    } finally {
      client.disconnect();
      temp.close();
    }
  });
});
