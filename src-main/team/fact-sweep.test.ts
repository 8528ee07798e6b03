import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisUnavailableReason, startRedisServer, type RedisServer } from '../testing/redis-server';
import { sweepStaleFacts } from './fact-sweep';
import { leaseFactStale, LEASE_FACT_KEEP_MS } from './lease-share';
import { pinFactStale } from './pin-merge';

const skip = redisUnavailableReason();
const NOW = 1_800_000_000_000;
const wrap = (kind: string, name: string, inner: object): string =>
  JSON.stringify({ kind, name, json: JSON.stringify(inner), at: NOW, from: 'x' });
const pin = (expiresAt: number, clearedAt?: number) => ({
  key: 'k',
  session: 's',
  target: 'm',
  connection: 'c',
  createdAt: 1,
  lastServedAt: 1,
  expiresAt,
  ...(clearedAt === undefined ? {} : { clearedAt }),
});
const lease = (expiresAt: number, endedAt?: number) => ({
  owner: 'o',
  key: 'k',
  connection: 'c',
  generation: 1,
  acquiredAt: 1,
  renewedAt: 1,
  expiresAt,
  ...(endedAt === undefined ? {} : { endedAt, reason: 'owner_exit' }),
});

describe.skipIf(skip !== null)(`team fact sweep on a real redis-server${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let server: RedisServer;
  let client: Redis;
  beforeAll(async () => {
    server = await startRedisServer();
    client = new Redis(server.url, { maxRetriesPerRequest: 0 });
  });
  afterAll(async () => {
    client.disconnect();
    await server.dispose();
  });

  it('ISSUE-24 §4: expired pins, old tombstones and long-ended leases leave the hashes; live ones stay', async () => {
    await client.hset('t:team:pin', {
      live: wrap('pin', 'live', pin(NOW + 1)),
      expired: wrap('pin', 'expired', pin(NOW - 1)),
      tomb: wrap('pin', 'tomb', pin(NOW + 1, NOW - 5)),
      oldTomb: wrap('pin', 'oldTomb', pin(NOW, NOW - 5)),
      junk: 'not json',
    });
    expect(await sweepStaleFacts(client, 't:team:pin', (json) => pinFactStale(json, NOW))).toBe(3);
    expect(Object.keys(await client.hgetall('t:team:pin')).sort()).toEqual(['live', 'tomb']);

    await client.hset('t:team:lease', {
      active: wrap('lease', 'active', lease(NOW + 1)),
      recent: wrap('lease', 'recent', lease(NOW - 10, NOW - 5)),
      old: wrap('lease', 'old', lease(NOW - LEASE_FACT_KEEP_MS - 10, NOW - LEASE_FACT_KEEP_MS)),
    });
    expect(await sweepStaleFacts(client, 't:team:lease', (json) => leaseFactStale(json, NOW))).toBe(1);
    expect(Object.keys(await client.hgetall('t:team:lease')).sort()).toEqual(['active', 'recent']);
  });

  it('ISSUE-24 §4: a fact rewritten while the sweep ran is kept (compare-and-delete)', async () => {
    await client.hset('t2:team:pin', 'a', wrap('pin', 'a', pin(NOW - 1)));
    const fresh = wrap('pin', 'a', pin(NOW + 60_000));
    // The stale judgement happens, then another instance writes the field before the delete.
    const gone = await sweepStaleFacts(client, 't2:team:pin', (json) => {
      void client.hset('t2:team:pin', 'a', fresh);
      return pinFactStale(json, NOW);
    });
    expect(gone).toBe(0);
    expect(await client.hget('t2:team:pin', 'a')).toBe(fresh);
  });
});
