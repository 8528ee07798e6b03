import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { freePort, redisUnavailableReason, startRedisServer, type RedisServer } from '../../testing/redis-server';
import { createTempDb, type TempDb } from '../../testing/temp-db';
import type { DimensionRef } from '../quota-ports';
import { createSqliteQuotaStore } from '../../core/sqlite-quota-store';
import { createQuotaStoreFactory, type QuotaStoreConfig, type SwitchingQuotaStore } from './store-factory';

const HOUR = 3_600_000;
const DIM: DimensionRef = { key: 'pool-1:requests:hourly', windowMs: HOUR };
const T0 = 500_000 * HOUR;
const PASSWORD = 's3cret-pw';
/** Short retry and probe delays so reconnects happen within a test; fail-fast as in production. */
const FAST = { redisOptions: { retryStrategy: (n: number) => Math.min(n * 50, 200) }, probeMaxMs: 200, now: () => T0 };

/** Every log line of every factory in this file: none may carry the password. */
const allLines: string[] = [];
const opened: Array<{ store: SwitchingQuotaStore; temp: TempDb }> = [];

function open(config: QuotaStoreConfig, extra: Partial<Parameters<typeof createQuotaStoreFactory>[0]> = {}) {
  const temp = createTempDb();
  const lines: string[] = [];
  const store = createQuotaStoreFactory({
    openLocal: (log) => createSqliteQuotaStore(temp.db, { log }),
    config: () => config,
    log: (line) => {
      lines.push(line);
      allLines.push(line);
    },
    ...FAST,
    ...extra,
  });
  opened.push({ store, temp });
  return { store, temp, lines };
}

afterEach(async () => {
  for (const { store, temp } of opened.splice(0)) {
    await store.close();
    temp.close();
  }
});

afterAll(() => {
  // QDRV-7: checked over every line logged in this file, including "lost" and "back" lines.
  expect(allLines.length).toBeGreaterThan(0);
  for (const line of allLines) {
    expect(line.startsWith('[quota:factory]')).toBe(true);
    expect(line).not.toContain(PASSWORD);
  }
});

describe('quota store factory without Redis', () => {
  it('QDRV-1: the default driver is sqlite and the counters land in quota_consumption', async () => {
    const { store, temp } = open({ driver: 'sqlite', redisUrl: null });
    await store.ready();
    expect(store.status()).toMatchObject({ configured: 'sqlite', active: 'sqlite', fallbackReason: null });
    expect(store.driver).toBe('sqlite');
    await store.consume('alice', DIM, 3, T0);
    store.flush();
    expect(temp.db.prepare('SELECT consumed FROM quota_consumption').all()).toEqual([{ consumed: 3 }]);
  });

  it('QDRV-5: driver redis without a URL falls back to sqlite with a quota:factory warning', async () => {
    const { store, lines } = open({ driver: 'redis', redisUrl: null });
    await store.ready();
    expect(store.status()).toMatchObject({ configured: 'redis', active: 'sqlite' });
    expect(store.status().fallbackReason).toMatch(/no Redis URL/);
    expect(lines.some((l) => l.startsWith('[quota:factory]') && /falling back to sqlite/.test(l))).toBe(true);
    await expect(store.consume('alice', DIM, 1, T0)).resolves.toBe(1);
  });

  it('QDRV-5: a missing ioredis package falls back to sqlite with a warning', async () => {
    const { store, lines } = open(
      { driver: 'redis', redisUrl: `redis://:${PASSWORD}@127.0.0.1:6379` },
      { loadRedis: () => Promise.resolve(null) },
    );
    await store.ready();
    expect(store.status().active).toBe('sqlite');
    expect(store.status().fallbackReason).toMatch(/ioredis/);
    expect(store.status().redisUrl).toBe('redis://:***@127.0.0.1:6379');
    expect(lines.some((l) => /\[quota:factory\].*ioredis.*falling back to sqlite/.test(l))).toBe(true);
  });

  it('QDRV-6: a closed port falls back to sqlite fast (< 3 s) with a masked warning', async () => {
    const port = await freePort();
    const started = Date.now();
    const { store, lines } = open({ driver: 'redis', redisUrl: `redis://:${PASSWORD}@127.0.0.1:${port}` });
    await store.ready();
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(store.status().active).toBe('sqlite');
    expect(store.status().fallbackReason).toMatch(/cannot connect to redis/);
    const warning = lines.find((l) => /falling back to sqlite/.test(l));
    expect(warning).toContain(`redis://:***@127.0.0.1:${port}`);
    await expect(store.consume('alice', DIM, 2, T0)).resolves.toBe(2);
  });

  it('QDRV-6: an unresolvable host falls back to sqlite fast (< 3 s)', async () => {
    const started = Date.now();
    const { store } = open({ driver: 'redis', redisUrl: `redis://user:${PASSWORD}@no-such-host.invalid:6379` });
    await store.ready();
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(store.status().active).toBe('sqlite');
    expect(store.status().redisUrl).toBe('redis://user:***@no-such-host.invalid:6379');
  });
});

const skip = redisUnavailableReason();

describe.skipIf(skip !== null)(
  `quota store factory with a real redis-server${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let server: RedisServer;
    let admin: Redis;

    beforeAll(async () => {
      server = await startRedisServer({ password: PASSWORD });
      admin = new Redis(server.url);
    });
    afterAll(async () => {
      admin.disconnect();
      await server.dispose();
    });

    it('QDRV-2: with a reachable Redis the counters go to Redis, not to SQLite', async () => {
      await admin.flushdb();
      const { store, temp, lines } = open({ driver: 'redis', redisUrl: server.url });
      await store.ready();
      expect(store.status()).toMatchObject({ configured: 'redis', active: 'redis', fallbackReason: null });
      await store.consume('alice', DIM, 4, T0);
      await expect(admin.get(`leeway:quota:alice:${DIM.key}:${T0 / HOUR}`)).resolves.toBe('4');
      store.flush();
      // SQLite holds a mirror of what Redis answered (issue 24 §4: an outage starts from it).
      expect(temp.db.prepare('SELECT consumed FROM quota_consumption').all()).toEqual([{ consumed: 4 }]);
      expect(lines.some((l) => /\[quota:factory\] using redis at redis:\/\/:\*\*\*@127\.0\.0\.1/.test(l))).toBe(true);
    });

    it("QDRV-2: two instances with their own SQLite files on one Redis share a key's count", async () => {
      await admin.flushdb();
      const a = open({ driver: 'redis', redisUrl: server.url });
      const b = open({ driver: 'redis', redisUrl: server.url });
      await Promise.all([a.store.ready(), b.store.ready()]);
      await a.store.consume('alice', DIM, 7, T0);
      // Switching instance does not give the key a fresh share: B sees A's 7.
      await expect(b.store.consume('alice', DIM, 3, T0 + 1)).resolves.toBe(10);
      await expect(a.store.peek('alice', DIM, T0 + 2)).resolves.toBe(10);
    });

    it('QDRV-6: Redis killed mid-run: every call keeps succeeding on SQLite; restarted: back to Redis', async () => {
      await admin.flushdb();
      const { store, lines } = open({ driver: 'redis', redisUrl: server.url });
      await store.ready();
      await store.consume('alice', DIM, 5, T0);
      await server.stop();
      // No failed call: consumption, peeks and bulk reads are served by SQLite meanwhile.
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => store.consume('alice', DIM, 1, T0 + i)));
      expect(results).toHaveLength(10);
      // SQLite mirrored Redis's 5, so the outage continues from the shared count (issue 24 §4).
      await expect(store.peek('alice', DIM, T0 + 20)).resolves.toBe(15);
      await expect(store.readMany(['alice'], [DIM], T0 + 20)).resolves.toMatchObject({ curr: new Float64Array([15]) });
      expect(store.status().active).toBe('sqlite');
      expect(store.status().fallbackReason).toMatch(/redis/);
      expect(lines.some((l) => /\[quota:factory\] .*falling back to sqlite/.test(l))).toBe(true);

      await server.restart();
      await vi.waitFor(() => expect(store.status().active).toBe('redis'), { timeout: 10_000, interval: 50 });
      expect(lines.some((l) => l.startsWith('[quota:factory] redis back at redis://:***@'))).toBe(true);
      // The restarted server is empty: the outage journal gave it back this instance's 15 first.
      await expect(store.consume('alice', DIM, 2, T0 + 30)).resolves.toBe(17);
    });

    it('QDRV-6: a command that hangs on a live connection is retried on SQLite; the probe returns to Redis', async () => {
      await admin.flushdb();
      const { store, lines } = open(
        { driver: 'redis', redisUrl: server.url },
        { redisOptions: { ...FAST.redisOptions, commandTimeout: 200 } },
      );
      await store.ready();
      await admin.call('CLIENT', 'PAUSE', '1000', 'ALL');
      await expect(store.consume('bob', DIM, 3, T0)).resolves.toBe(3);
      expect(store.status().active).toBe('sqlite');
      expect(lines.some((l) => /redis command failed .*falling back to sqlite/.test(l))).toBe(true);
      await vi.waitFor(() => expect(store.status().active).toBe('redis'), { timeout: 10_000, interval: 50 });
      expect(lines.some((l) => l.startsWith('[quota:factory] redis back'))).toBe(true);
    });

    it('QDRV-4: reconfigure() switches drivers when the setting changes', async () => {
      let config: QuotaStoreConfig = { driver: 'sqlite', redisUrl: null };
      const temp = createTempDb();
      const store = createQuotaStoreFactory({
        openLocal: (log) => createSqliteQuotaStore(temp.db, { log }),
        config: () => config,
        log: (l) => allLines.push(l),
        ...FAST,
      });
      opened.push({ store, temp });
      await store.ready();
      expect(store.status().active).toBe('sqlite');
      config = { driver: 'redis', redisUrl: server.url };
      await store.reconfigure();
      expect(store.status().active).toBe('redis');
      config = { driver: 'sqlite', redisUrl: server.url };
      await store.reconfigure();
      expect(store.status()).toMatchObject({ configured: 'sqlite', active: 'sqlite', fallbackReason: null });
    });

    it('QDRV-6: close() leaves no timer or socket behind, connected or between reconnects', async () => {
      const live = (): number =>
        process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap' || r === 'Timeout').length;
      const before = live();
      const dbs = [createTempDb(), createTempDb()] as const;
      const connected = createQuotaStoreFactory({
        openLocal: (log) => createSqliteQuotaStore(dbs[0].db, { log }),
        config: () => ({ driver: 'redis', redisUrl: server.url }),
        log: (l) => allLines.push(l),
        ...FAST,
      });
      await connected.ready();
      await connected.consume('alice', DIM, 1, T0);
      await connected.close();
      expect(live()).toBeLessThanOrEqual(before);

      const port = await freePort();
      const retrying = createQuotaStoreFactory({
        openLocal: (log) => createSqliteQuotaStore(dbs[1].db, { log }),
        config: () => ({ driver: 'redis', redisUrl: `redis://:${PASSWORD}@127.0.0.1:${port}` }),
        log: (l) => allLines.push(l),
        ...FAST,
      });
      await retrying.ready();
      await retrying.close();
      await new Promise((resolve) => setImmediate(resolve));
      expect(live()).toBeLessThanOrEqual(before);
      for (const t of dbs) t.close();
    });
  },
);
