import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { redisUnavailableReason, startRedisServer, type RedisServer } from '../testing/redis-server';
import { anthropicConnection, type RunningLeeway } from '../testing/start-leeway';
import {
  ask,
  burst,
  call,
  midWindowClock,
  startQuotaLeeway,
  waitForConsumed,
  type QuotaErrorBody,
} from './quota.testkit';

const unavailable = redisUnavailableReason();
const title =
  unavailable === null ? 'quota counters on a real Redis' : `quota counters on a real Redis (skipped: ${unavailable})`;

let redis: RedisServer | null = null;
let upstream: FakeUpstream | null = null;
let running: RunningLeeway[] = [];

beforeAll(async () => {
  if (unavailable !== null) return;
  redis = await startRedisServer();
  upstream = await startFakeUpstream({ format: 'anthropic', name: 'acct' });
});
afterAll(async () => {
  await upstream?.close();
  await redis?.dispose();
});
afterEach(async () => {
  await Promise.all(running.map((h) => h.stop()));
  running = [];
});

async function waitFor<T>(
  read: () => Promise<T> | T,
  ok: (v: T) => boolean,
  what: string,
  timeoutMs = 8_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const storeOf = (h: RunningLeeway) => call(h, 'quota.storeStatus', undefined);

/** An instance with its own data dir, switched to Redis through the setting (QDRV-3/4). */
async function instance(now: () => number): Promise<RunningLeeway> {
  if (!redis || !upstream) throw new Error('redis not started');
  const h = await startQuotaLeeway(
    { connections: [anthropicConnection('acct', upstream.url)] },
    [
      {
        name: 'team',
        connection: 'acct',
        dimensions: [{ unit: 'requests', window: 'hourly', limit: 20 }],
        allocations: [
          { key: 'alice', weight: 50, policy: 'hard' },
          { key: 'bob', weight: 50, policy: 'hard' },
        ],
      },
    ],
    { now },
  );
  running.push(h);
  const set = await h.core.router.call('settings.update', { quotaStore: { driver: 'redis', redisUrl: redis.url } });
  if (!set.ok) throw new Error(set.error.message);
  await waitFor(
    () => storeOf(h),
    (s) => s.active === 'redis',
    'the redis store',
  );
  return h;
}

describe.skipIf(unavailable !== null)(title, () => {
  it('QDRV-2, QWIN-5: two instances with their own data dirs on one Redis count one pool — a key cannot get its share twice by switching instance', async () => {
    const now = midWindowClock();
    const one = await instance(now);
    const two = await instance(now);
    await one.core.router.call('quota.poolUsage', { id: 'team' });
    expect(await burst(one, 'alice', 'claude-sonnet-4-5', 6, 'team')).toEqual(Array(6).fill(200));
    // The second instance sees the first one's six at once: the counters are Redis's.
    await waitForConsumed(two, 'team', 'alice', 6);
    expect(await burst(two, 'alice', 'claude-sonnet-4-5', 4, 'team')).toEqual(Array(4).fill(200));
    for (const h of [one, two]) {
      const res = await ask(h, 'alice', 'claude-sonnet-4-5');
      const body = (await res.json()) as QuotaErrorBody;
      expect(res.status).toBe(429);
      expect(body.leeway.details).toMatchObject({ key: 'alice', consumed: 10, fairShare: 10, reason: 'fair-share' });
    }
    const bob = await ask(two, 'bob', 'claude-sonnet-4-5');
    await bob.text();
    expect(bob.status).toBe(200);
  });

  it('QDRV-6: Redis killed mid-run falls back to SQLite without a failed request, and Redis back is used again', async () => {
    if (!redis) throw new Error('redis not started');
    const h = await instance(midWindowClock());
    expect(await burst(h, 'bob', 'claude-sonnet-4-5', 2, 'team')).toEqual([200, 200]);
    await redis.stop();
    const during: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await ask(h, 'bob', 'claude-sonnet-4-5');
      await res.text();
      during.push(res.status);
    }
    expect(during).toEqual([200, 200, 200, 200]);
    const fallback = await waitFor(
      () => storeOf(h),
      (s) => s.active === 'sqlite',
      'the sqlite fallback',
    );
    expect(fallback.configured).toBe('redis');
    expect(fallback.fallbackReason).not.toBeNull();
    expect(h.logs.some((l) => l.startsWith('[quota:factory]'))).toBe(true);

    await redis.restart();
    await waitFor(
      () => storeOf(h),
      (s) => s.active === 'redis',
      'redis again',
      15_000,
    );
    const after = await ask(h, 'bob', 'claude-sonnet-4-5');
    await after.text();
    expect(after.status).toBe(200);
  }, 30_000);
});
