import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BreakerState } from '../resilience/breaker/breaker-state';
import type { ConnectionHealth } from '../resilience/cooldown/connection-health';
import type { BreakerRowStore, HealthRowStore, StoredHealthRow } from '../resilience/resilience-stores';
import { redisUnavailableReason, startRedisServer, type RedisServer } from '../testing/redis-server';
import { createTeamShare, type TeamShare } from './team-share';

const skip = redisUnavailableReason();
const rows = (): HealthRowStore & { saved: StoredHealthRow[] } => {
  const saved: StoredHealthRow[] = [];
  return { saved, loadAll: () => [], save: (row) => void saved.push(row) };
};
const breakerRows = (): BreakerRowStore => ({ loadAll: () => [], save: () => undefined, remove: () => undefined });

describe.skipIf(skip !== null)(`team share on a real redis-server${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let server: RedisServer;
  const shares: TeamShare[] = [];
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    for (const s of shares) await s.close();
    await server.dispose();
  });

  /** An instance whose connection `acct` has its own id, as with two data dirs. */
  async function instance(id: string) {
    const health: Array<[string, ConnectionHealth]> = [];
    const breakers: Array<[string, BreakerState]> = [];
    const share = createTeamShare({
      redis: () => ({ url: server.url, prefix: 'leeway:' }),
      idOf: (name) => (name === 'acct' ? id : null),
      nameOf: (cid) => (cid === id ? 'acct' : null),
      log: () => undefined,
    });
    shares.push(share);
    await share.start({
      absorbHealth: (cid, h) => health.push([cid, h]) > 0,
      absorbBreaker: (p, b) => breakers.push([p, b]) > 0,
      absorbLockouts: () => false,
      onLockoutsChanged: () => undefined,
    });
    await vi.waitFor(() => expect(share.isUp()).toBe(true), { timeout: 5_000, interval: 20 });
    return {
      share,
      health,
      breakers,
      store: share.wrapHealth(rows()),
      breakerStore: share.wrapBreakers(breakerRows()),
    };
  }

  it('ISSUE-24 §4: a cooldown and an open breaker reach the other instance under its own connection id', async () => {
    const a = await instance('id-a');
    const b = await instance('id-b');
    const row: StoredHealthRow = {
      connectionId: 'id-a',
      rateLimitedUntil: Date.now() + 60_000,
      testStatus: 'unavailable',
      lastError: 'rate limited',
      lastErrorType: 'rate_limit_exceeded',
      errorCode: '429',
      backoffLevel: 0,
      extraJson: '{}',
    };
    a.store.save(row, Date.now());
    const opened: BreakerState = {
      kind: 'OPEN',
      failureCount: 8,
      lastFailureAt: 1,
      reason: 'x',
      openedAt: 1,
      openCycles: 1,
    };
    a.breakerStore.save('anthropic@http://up', JSON.stringify(opened), Date.now());
    await vi.waitFor(() => expect(b.health).toHaveLength(1), { timeout: 1_000, interval: 10 });
    expect(b.health[0]).toEqual(['id-b', expect.objectContaining({ errorCode: '429', testStatus: 'unavailable' })]);
    await vi.waitFor(() => expect(b.breakers).toEqual([['anthropic@http://up', opened]]), {
      timeout: 1_000,
      interval: 10,
    });
    // No echo: the sender is not told its own facts back.
    expect(a.health).toHaveLength(0);
  });
});
