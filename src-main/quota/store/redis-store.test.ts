import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { redisUnavailableReason, startRedisServer, type RedisServer } from '../../testing/redis-server';
import type { DimensionRef, QuotaStore } from '../quota-ports';
import { createRedisQuotaStore } from './redis-store';

const HOUR = 3_600_000;
const DIM: DimensionRef = { key: 'pool-1:requests:hourly', windowMs: HOUR };
const OTHER_DIM: DimensionRef = { key: 'pool-1:tokens:hourly', windowMs: HOUR };
const T0 = 500_000 * HOUR;
const skip = redisUnavailableReason();

describe.skipIf(skip !== null)(`redis quota store${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let server: RedisServer;
  let client: Redis;
  let store: QuotaStore;

  beforeAll(async () => {
    server = await startRedisServer();
    client = new Redis(server.url);
    store = createRedisQuotaStore(client, { prefix: 'test:' });
  });
  afterAll(async () => {
    await client.quit();
    await server.dispose();
  });
  beforeEach(async () => {
    await client.flushdb();
  });

  it('ISSUE-24 §4: an op id is applied once, whichever comes first: the consume (resent late by the client) or its replay', async () => {
    const redis = createRedisQuotaStore(client, { prefix: 'test:' });
    const index = Math.floor((T0 + 1) / HOUR);
    // The journal replayed the timed-out consume first; ioredis then delivers the original.
    await redis.replay({ id: 'op-1', keyId: 'alice', dim: DIM, index, delta: 3, floor: 0 });
    await expect(redis.consumeRaw('alice', DIM, 3, T0 + 1, 'op-1')).resolves.toEqual({ curr: 3, prev: 0 });
    // The usual order: the consume ran, so its replay adds nothing.
    await redis.consumeRaw('alice', DIM, 2, T0 + 2, 'op-2');
    await redis.replay({ id: 'op-2', keyId: 'alice', dim: DIM, index, delta: 2, floor: 0 });
    // A consume with a fresh id (every live consume has one) adds as before.
    await redis.consumeRaw('alice', DIM, 4, T0 + 3, 'op-3');
    await expect(store.peek('alice', DIM, T0 + 4)).resolves.toBeCloseTo(9, 9);
  });

  it('QWIN-3: consume 100 then peek gives 100; a fresh key reads 0', async () => {
    await expect(store.consume('alice', DIM, 100, T0 + 10)).resolves.toBeCloseTo(100, 9);
    await expect(store.peek('alice', DIM, T0 + 20)).resolves.toBeCloseTo(100, 9);
    await expect(store.peek('nobody', DIM, T0 + 20)).resolves.toBe(0);
  });

  it('QWIN-1: two consumes sum; fractional amounts stay exact enough (INCRBYFLOAT)', async () => {
    await store.consume('alice', DIM, 30, T0 + 1);
    await expect(store.consume('alice', DIM, 12.5, T0 + 2)).resolves.toBeCloseTo(42.5, 9);
  });

  it('QWIN-2: the previous bucket of 1 000 decays by the elapsed fraction of the window', async () => {
    await store.consume('alice', DIM, 1_000, T0 + HOUR / 2);
    const quarter = await store.peek('alice', DIM, T0 + HOUR + HOUR / 4);
    expect(Math.abs(quarter - 750) / 750).toBeLessThan(0.01);
    // consume's own answer applies the same weighting: 1 000 × 0.5 + 10.
    await expect(store.consume('alice', DIM, 10, T0 + HOUR + HOUR / 2)).resolves.toBeCloseTo(510, 6);
    const pairs = await store.readMany(['alice'], [DIM], T0 + HOUR + HOUR / 2);
    expect([pairs.prev[0], pairs.curr[0]]).toEqual([1_000, 10]);
  });

  it('QWIN-5: 50 concurrent consumes of 10 add up to exactly 500', async () => {
    await Promise.all(Array.from({ length: 50 }, (_, i) => store.consume('alice', DIM, 10, T0 + i)));
    await expect(store.peek('alice', DIM, T0 + 100)).resolves.toBe(500);
  });

  it('QWIN-1: keys and dimensions are isolated; readMany lays them out key-major', async () => {
    await store.consume('alice', DIM, 5, T0);
    await store.consume('bob', DIM, 7, T0);
    await store.consume('alice', OTHER_DIM, 900, T0);
    const pairs = await store.readMany(['alice', 'bob', 'carol'], [DIM, OTHER_DIM], T0 + 1);
    expect([...pairs.curr]).toEqual([5, 900, 7, 0, 0, 0]);
    expect([...pairs.prev]).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('QWIN-3: clear(key) removes one key, clear() the whole prefix and nothing outside it', async () => {
    await store.consume('alice', DIM, 5, T0);
    await store.consume('bob', DIM, 7, T0);
    await client.set('other:quota:alice:x:1', '1');
    await store.clear('alice');
    await expect(store.peek('alice', DIM, T0 + 1)).resolves.toBe(0);
    await expect(store.peek('bob', DIM, T0 + 1)).resolves.toBe(7);
    await store.clear();
    await expect(store.peek('bob', DIM, T0 + 1)).resolves.toBe(0);
    await expect(client.get('other:quota:alice:x:1')).resolves.toBe('1');
  });

  it('QENV-3: gc is a no-op on Redis (expiry does it) and removes nothing', async () => {
    await store.consume('alice', DIM, 5, T0);
    await expect(store.gc(1, T0 + 10 * HOUR)).resolves.toBe(0);
    await expect(client.get(`test:quota:alice:${DIM.key}:${T0 / HOUR}`)).resolves.toBe('5');
  });

  it('QWIN-5: a consume is one EVAL from the client (no EVALSHA, no separate commands)', async () => {
    const monitor = await client.monitor();
    const seen: Array<{ args: string[]; source: string }> = [];
    const sentinel = new Promise<void>((resolve) => {
      monitor.on('monitor', (_time: string, args: string[], source: string) => {
        if (args[0]?.toLowerCase() === 'echo' && args[1] === 'end-of-test') resolve();
        else seen.push({ args, source });
      });
    });
    try {
      await client.config('RESETSTAT');
      await store.consume('alice', DIM, 3, T0);
      await client.echo('end-of-test');
      await sentinel;
      const fromClient = seen.filter((e) => e.source !== 'lua' && e.args[0]?.toLowerCase() !== 'config');
      expect(fromClient.map((e) => e.args[0]?.toLowerCase())).toEqual(['eval']);
      const stats = await client.info('commandstats');
      expect(stats).toMatch(/cmdstat_eval:calls=1,/);
      expect(stats).not.toMatch(/cmdstat_evalsha/);
    } finally {
      monitor.disconnect();
    }
  });

  it('QWIN-5: consume sets a TTL of two windows on both the current and the previous bucket', async () => {
    await store.consume('alice', DIM, 1, T0 + 1);
    await store.consume('alice', DIM, 1, T0 + HOUR + 1);
    const index = T0 / HOUR + 1;
    for (const key of [`test:quota:alice:${DIM.key}:${index}`, `test:quota:alice:${DIM.key}:${index - 1}`]) {
      const ttl = await client.ttl(key);
      expect(ttl).toBeGreaterThan(7_000);
      expect(ttl).toBeLessThanOrEqual(7_200);
    }
  });

  it('QDRV-2: two instances (two clients) on one Redis count one counter', async () => {
    const otherClient = new Redis(server.url);
    try {
      const other = createRedisQuotaStore(otherClient, { prefix: 'test:' });
      await store.consume('alice', DIM, 6, T0);
      await expect(other.consume('alice', DIM, 4, T0 + 1)).resolves.toBe(10);
      await expect(store.peek('alice', DIM, T0 + 2)).resolves.toBe(10);
    } finally {
      await otherClient.quit();
    }
  });
});
