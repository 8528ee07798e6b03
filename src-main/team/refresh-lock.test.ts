import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisUnavailableReason, startRedisServer, type RedisServer } from '../testing/redis-server';
import { createRefreshLock } from './refresh-lock';

const skip = redisUnavailableReason();

describe.skipIf(skip !== null)(
  `the team refresh-token lock on a real redis-server${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let server: RedisServer;
    let a: Redis;
    let b: Redis;
    beforeAll(async () => {
      server = await startRedisServer();
      a = new Redis(server.url);
      b = new Redis(server.url);
    });
    afterAll(async () => {
      a.disconnect();
      b.disconnect();
      await server.dispose();
    });

    it('ISSUE-24 §4: two instances racing for one connection: exactly one owns the refresh, fences increase', async () => {
      const [one, two] = [createRefreshLock(a, 'leeway:'), createRefreshLock(b, 'leeway:')];
      const leases = await Promise.all([one.acquire('claude-max'), two.acquire('claude-max')]);
      const owners = leases.filter((l) => l !== null);
      expect(owners).toHaveLength(1);
      const owner = owners[0]!;
      await expect(owner.stillOwner()).resolves.toBe(true);
      // Another connection is independent.
      expect(await two.acquire('claude-pro')).not.toBeNull();
      await owner.release();
      const next = await two.acquire('claude-max');
      expect(next).not.toBeNull();
      expect(next!.fence).toBeGreaterThan(owner.fence);
    });

    it('ISSUE-24 §4: a stalled owner whose lock expired is fenced off and its release frees nothing', async () => {
      const slow = createRefreshLock(a, 'leeway:', 100);
      const stalled = await slow.acquire('claude-team');
      expect(stalled).not.toBeNull();
      await new Promise((r) => setTimeout(r, 200));
      const fresh = await createRefreshLock(b, 'leeway:').acquire('claude-team');
      expect(fresh).not.toBeNull();
      await expect(stalled!.stillOwner()).resolves.toBe(false);
      await stalled!.release();
      await expect(fresh!.stillOwner()).resolves.toBe(true);
    });
  },
);
