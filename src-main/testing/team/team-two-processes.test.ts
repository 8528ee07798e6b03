import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HeadlessProcess } from '../crash/headless-process';
import { startFakeUpstream, type FakeUpstream } from '../fake-upstream';
import { redisUnavailableReason, startRedisServer, type RedisServer } from '../redis-server';
import { anthropicConnection, TEST_LOCAL_KEY } from '../start-leeway';
import { askMember, poll, removeTeamDirs, startTeamMember, teamRpc } from './team-process.testkit';
import { AGENT2_KEY, AGENT_KEY, askInSession, leaseCall, servedBy, sessionConfig } from './team-sessions.testkit';

/** Issue 24 §4: two real Leeway processes, each with its own data dir, on one real redis-server. */
const skip = redisUnavailableReason();
let redis: RedisServer;
let admin: Redis;
let first: FakeUpstream;
let second: FakeUpstream;
/** Serves the session pin and lease connections (team-sessions.testkit.ts). */
let shared: FakeUpstream;
let one: HeadlessProcess;
let two: HeadlessProcess;

/** The `test` key's consumption of pool `team` as an instance reports it. */
async function consumed(url: string): Promise<number> {
  const usage = (await teamRpc(url, 'quota.poolUsage', { id: 'team' })) as {
    dimensions: Array<{ keys: Array<{ key: string; consumed: number }> }>;
  };
  return usage.dimensions[0]?.keys.find((k) => k.key === 'test')?.consumed ?? 0;
}

async function instance(withCold: boolean): Promise<HeadlessProcess> {
  const sessions = sessionConfig(shared.url, withCold);
  const p = await startTeamMember(
    {
      keys: [{ name: 'test', key: TEST_LOCAL_KEY }, ...sessions.keys],
      connections: [
        anthropicConnection('first', first.url, { priority: 1 }),
        anthropicConnection('second', second.url, { priority: 2 }),
        ...sessions.connections,
      ],
      combos: [
        {
          name: 'main',
          targets: [
            { connection: 'first', model: 'claude-sonnet-4-5' },
            { connection: 'second', model: 'claude-sonnet-4-5' },
          ],
        },
        ...sessions.combos,
      ],
    },
    redis.url,
  );
  await teamRpc(p.url, 'quota.upsertPool', {
    name: 'team',
    connection: 'second',
    dimensions: [{ unit: 'requests', window: 'hourly', limit: 100_000 }],
    allocations: [{ key: 'test', weight: 100, policy: 'burst' }],
  });
  return p;
}

/** The combo `main` over `first` and `second`. */
const ask = (url: string) => askMember(url, 'main');

describe.skipIf(skip !== null)(
  `a team of two Leeway processes on one Redis${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    beforeAll(async () => {
      redis = await startRedisServer();
      admin = new Redis(redis.url, { maxRetriesPerRequest: 0 });
      admin.on('error', () => undefined);
      first = await startFakeUpstream({ format: 'anthropic', name: 'first' });
      second = await startFakeUpstream({ format: 'anthropic', name: 'second' });
      shared = await startFakeUpstream({ format: 'anthropic', name: 'shared' });
      one = await instance(false);
      two = await instance(true);
      // Both have connected to Redis (the team bus logs once its first resync is done).
      await poll(async () => [one, two].every((p) => p.output().includes('[team] facts shared')), 'the team bus');
    }, 150_000);
    afterAll(async () => {
      await Promise.all([one, two].filter(Boolean).map((p) => p.stop('SIGTERM')));
      admin.disconnect();
      await Promise.all([first.close(), second.close(), shared.close(), redis.dispose()]);
      removeTeamDirs();
    });

    it('ISSUE-24 §4: a 429 learnt by one instance makes the other skip that connection within one second', async () => {
      first.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '120' } });
      expect(await ask(one.url)).toEqual({ status: 200, connection: 'second' });
      expect(first.requests).toHaveLength(1);
      await new Promise((r) => setTimeout(r, 1_000));
      // The other instance never saw the 429 itself, yet it does not call `first` any more.
      expect(await ask(two.url)).toEqual({ status: 200, connection: 'second' });
      expect(first.requests).toHaveLength(1);
    }, 30_000);

    it('ISSUE-24 §4, QDRV-6: Redis killed mid-traffic and brought back: every request served, no count lost or doubled', async () => {
      // The first test's counts reach the other instance asynchronously: start from a count both agree on.
      await poll(async () => (await consumed(one.url)) === (await consumed(two.url)), 'both instances to agree');
      const before = await consumed(one.url);
      const statuses: number[] = [];
      const traffic = async (n: number): Promise<void> => {
        for (let i = 0; i < n; i++) {
          const [a, b] = await Promise.all([ask(one.url), ask(two.url)]);
          statuses.push(a.status, b.status);
        }
      };
      await traffic(10);
      // What Redis holds survives the kill (a snapshot), as with a persistent team Redis. A count is
      // written just after its answer: the snapshot waits until Redis holds all 20 (a Redis that loses
      // acknowledged counts is the "restarted empty" case of quota/store/outage-merge.test.ts).
      await poll(async () => (await consumed(one.url)) === before + 20, 'the first 20 counts in Redis');
      await admin.save();
      await redis.stop();
      await traffic(10);
      await redis.restart();
      await traffic(5);
      expect(statuses).toEqual(Array(50).fill(200));
      for (const p of [one, two]) {
        let seen = 0;
        await poll(
          async () => (seen = await consumed(p.url)) === before + 50,
          () => `50 more (seen ${seen - before})`,
        );
      }
      // And it stays there: nothing replayed twice.
      await new Promise((r) => setTimeout(r, 1_500));
      expect(await consumed(one.url)).toBe(before + 50);
      expect(await consumed(two.url)).toBe(before + 50);
    }, 60_000);

    const served = async (url: string, model: string, session: string, as?: Parameters<typeof askInSession>[3]) => {
      const status = await askInSession(url, model, session, as);
      return status === 200 ? { status, served: servedBy(shared.requests) } : { status };
    };
    const oneSecond = (): Promise<void> => new Promise((r) => setTimeout(r, 1_000));

    it('ISSUE-24 §4 AFF-2: a session pinned through one instance is served by the other on the same connection', async () => {
      // Unpinned, the second instance serves `pinned` on `cold`; the first has only `warm`.
      expect(await served(two.url, 'pinned', 'session-elsewhere')).toEqual({ status: 200, served: 'cold' });
      expect(await served(one.url, 'pinned', 'session-shared')).toEqual({ status: 200, served: 'warm' });
      await oneSecond();
      expect(await served(two.url, 'pinned', 'session-shared')).toEqual({ status: 200, served: 'warm' });
      expect(await served(two.url, 'pinned', 'session-shared')).toEqual({ status: 200, served: 'warm' });
    }, 30_000);

    it('ISSUE-24 §4 LEASE-1 LEASE-11: a lease held through one instance keeps other owners off it on the other until released', async () => {
      const held = await leaseCall(one.url, AGENT_KEY, { action: 'acquire' });
      expect(held).toMatchObject({ status: 200, json: { connection: 'lease-x', generation: 1, state: 'acquired' } });
      await oneSecond();
      // Another owner asking the other instance: contention, with the lease's remaining time.
      const refused = await leaseCall(two.url, AGENT2_KEY, { action: 'acquire' });
      expect(refused.status).toBe(429);
      expect(JSON.stringify(refused.json)).toContain('lease_capacity_unavailable');
      expect(Number(refused.retryAfter)).toBeGreaterThan(1);
      // An ordinary request there goes to the next connection instead (LEASE-1).
      expect(await served(two.url, 'leased', 'session-plain')).toEqual({ status: 200, served: 'lease-y' });
      // The owner uses and renews its lease through the other instance too (same key name there).
      const owner = String(held.json.owner);
      const claim = { 'x-leeway-lease-owner': owner, 'x-leeway-lease-generation': '1' };
      expect(await served(two.url, 'leased', 'session-owner', { key: AGENT_KEY, headers: claim })).toEqual({
        status: 200,
        served: 'lease-x',
      });
      expect(await leaseCall(two.url, AGENT_KEY, { action: 'renew', generation: 1 }, owner)).toMatchObject({
        status: 200,
        json: { state: 'renewed', connection: 'lease-x' },
      });
      expect(await leaseCall(one.url, AGENT_KEY, { action: 'release', generation: 1 }, owner)).toMatchObject({
        status: 200,
        json: { state: 'released', already: false },
      });
      await oneSecond();
      expect(await leaseCall(two.url, AGENT2_KEY, { action: 'acquire' })).toMatchObject({
        status: 200,
        json: { connection: 'lease-x', state: 'acquired' },
      });
      // And now the first instance refuses the first owner's new lease the same way.
      await oneSecond();
      expect((await leaseCall(one.url, AGENT_KEY, { action: 'acquire' }, owner)).status).toBe(429);
    }, 30_000);
  },
);
