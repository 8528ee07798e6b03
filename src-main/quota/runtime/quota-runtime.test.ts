import { afterEach, describe, expect, it } from 'vitest';
import type { QuotaPoolView } from '../../../src-shared/domain/quota';
import { createMemoryDb } from '../../testing/temp-db';
import type { QuotaPoolsRepo, QuotaStore, ResolvedPool } from '../quota-ports';
import { createSqliteQuotaStore } from '../../core/sqlite-quota-store';
import { gateCandidates } from './quota-gate';
import { createQuotaRuntime, type QuotaRuntime } from './quota-runtime';

const HOUR = 3_600_000;
/** Half-way through an hourly bucket. */
const T = 1_000 * HOUR + HOUR / 2;
const ONE = { requests: 1, tokens: 0, usd: 0 };

function pool(over: Partial<ResolvedPool> = {}): ResolvedPool {
  return {
    id: 'p1',
    name: 'team',
    connectionIds: ['c1'],
    dimensions: [{ unit: 'requests', window: 'hourly', limit: 20 }],
    saturationThreshold: null,
    allocations: [
      { keyId: 'ka', keyName: 'alice', weight: 50, effectiveWeight: 50, policy: 'hard', capValue: null, capUnit: null },
      { keyId: 'kb', keyName: 'bob', weight: 50, effectiveWeight: 50, policy: 'soft', capValue: null, capUnit: null },
    ],
    ...over,
  };
}

function repo(pools: ResolvedPool[]): QuotaPoolsRepo {
  return {
    list: () => pools.map((p) => ({ id: p.id, dimensionsSource: 'pool' }) as QuotaPoolView),
    upsert: () => {
      throw new Error('not used');
    },
    remove: () => false,
    resolved: () => pools,
    plans: () => new Map(),
    setPlan: () => undefined,
    removePlan: () => false,
  };
}

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((c) => c()));
  closers = [];
});

function runtime(
  pools: ResolvedPool[],
  store?: QuotaStore,
  logs: string[] = [],
): { q: QuotaRuntime; store: QuotaStore } {
  const s = store ?? createSqliteQuotaStore(createMemoryDb(), { flushIntervalMs: 60_000 });
  closers.push(() => s.close());
  const q = createQuotaRuntime({
    store: s,
    storeState: () => ({ active: 'sqlite', redisUrl: null, fallbackReason: null }),
    pools: repo(pools),
    config: () => ({
      driver: 'sqlite',
      driverFrom: 'default',
      saturationThreshold: 0.5,
      softDeprioritizeFactor: 0.7,
      retentionDays: 14,
    }),
    log: (l) => logs.push(l),
    now: () => T,
  });
  q.reload();
  return { q, store: s };
}

describe('quota runtime', () => {
  it('QPIPE-1: the index answers covers/poolOf by key and connection; others are not covered', () => {
    const { q } = runtime([pool()]);
    expect(q.coversKey('ka')).toBe(true);
    expect(q.coversKey('kz')).toBe(false);
    expect(q.poolOf('ka', 'c1')?.pool.name).toBe('team');
    expect(q.poolOf('ka', 'c2')).toBeNull();
  });

  it('QFAIR-5, QPIPE-2: strict hard over share blocks with quota_exceeded, details and a Retry-After from the slide', async () => {
    const { q, store } = runtime([pool()]);
    const ref = { key: 'team:requests:hourly', windowMs: HOUR };
    // 10 in the previous bucket, 2 in this one: alice is at 5 + 2 = 7 (half the previous bucket left).
    await store.consume('alice', ref, 10, T - HOUR);
    await store.consume('alice', ref, 2, T);
    // bob takes the pool past the threshold (strict): 6 + alice 7 = 13 of 20.
    await store.consume('bob', ref, 6, T);
    const ip = q.poolOf('ka', 'c1');
    if (!ip) throw new Error('no pool');
    expect(await q.check(ip, 'ka', ONE, T)).toEqual({ kind: 'allow', penalized: false });
    await store.consume('alice', ref, 3, T);
    const held = await q.check(ip, 'ka', ONE, T);
    if (held.kind !== 'block') throw new Error('expected a block');
    expect(held.error).toMatchObject({ code: 'quota_exceeded', status: 429 });
    expect(held.error.details).toMatchObject({
      pool: 'team',
      key: 'alice',
      consumed: 10,
      fairShare: 10,
      mode: 'strict',
      reason: 'fair-share',
    });
    // alice = 10 × (1 − e/H) + 5 must fall below 9: e > 0.6 H, i.e. 6 minutes from now (at 0.5 H).
    expect(held.error.retryAfterMs).toBeGreaterThan(0.1 * HOUR - 1_000);
    expect(held.error.retryAfterMs).toBeLessThan(0.1 * HOUR + 1_000);
  });

  it('QFAIR-6: a soft key at its share in strict mode is penalized, not held', async () => {
    const { q, store } = runtime([pool()]);
    await store.consume('bob', { key: 'team:requests:hourly', windowMs: HOUR }, 10, T);
    const ip = q.poolOf('kb', 'c1');
    if (!ip) throw new Error('no pool');
    expect(await q.check(ip, 'kb', ONE, T)).toEqual({ kind: 'allow', penalized: true });
    expect(await q.check(ip, 'ka', ONE, T)).toEqual({ kind: 'allow', penalized: false });
  });

  it('QPIPE-3: a store that rejects lets the request through and warns once per period', async () => {
    const logs: string[] = [];
    const broken: QuotaStore = {
      driver: 'sqlite',
      peek: () => Promise.reject(new Error('x')),
      consume: () => Promise.reject(new Error('x')),
      readMany: () => Promise.reject(new Error('disk gone')),
      gc: () => Promise.resolve(0),
      clear: () => Promise.resolve(),
      close: () => Promise.resolve(),
    };
    const { q } = runtime([pool()], broken, logs);
    const ip = q.poolOf('ka', 'c1');
    if (!ip) throw new Error('no pool');
    for (let i = 0; i < 3; i++)
      expect(await q.check(ip, 'ka', ONE, T + i)).toEqual({ kind: 'allow', penalized: false });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatch(/^\[quota:enforce\] .*fail-open.*disk gone/);
  });

  it('QPIPE-4/5: record consumes each dimension by unit after the answer, never synchronously', async () => {
    const tokens = pool({
      dimensions: [
        { unit: 'requests', window: 'hourly', limit: 20 },
        { unit: 'tokens', window: 'daily', limit: 100_000 },
      ],
    });
    const { q, store } = runtime([tokens]);
    q.record(
      'ka',
      'c1',
      {
        usage: { inputTokens: 100, outputTokens: 20, cacheReadTokens: 0, cacheWriteTokens: 0 },
        model: 'claude-sonnet-4-5',
        windows: [],
      },
      T,
    );
    expect(await store.peek('alice', { key: 'team:requests:hourly', windowMs: HOUR }, T)).toBe(0);
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setTimeout(r, 5));
    expect(await store.peek('alice', { key: 'team:requests:hourly', windowMs: HOUR }, T)).toBe(1);
    expect(await store.peek('alice', { key: 'team:tokens:daily', windowMs: 24 * HOUR }, T)).toBeGreaterThanOrEqual(120);
  });

  it('QUI-6: usage() reports per key consumed, fair share and mode; unknown pools are null', async () => {
    const { q, store } = runtime([pool()]);
    await store.consume('alice', { key: 'team:requests:hourly', windowMs: HOUR }, 4, T);
    const usage = await q.usage('team', T);
    expect(usage?.dimensions[0]?.keys.map((k) => [k.key, k.consumed, k.fairShare])).toEqual([
      ['alice', 4, 10],
      ['bob', 0, 10],
    ]);
    expect(usage?.dimensions[0]?.mode).toBe('generous');
    expect(await q.usage('nope', T)).toBeNull();
    expect((await q.usage('p1', T))?.name).toBe('team');
  });

  it('QPIPE-1/2: checkNow decides synchronously as check does; a store without a synchronous form gets null', async () => {
    const { q, store } = runtime([pool()]);
    await store.consume('bob', { key: 'team:requests:hourly', windowMs: HOUR }, 10, T);
    const ip = q.poolOf('kb', 'c1');
    if (!ip) throw new Error('no pool');
    expect(q.checkNow(ip, 'kb', ONE, T)).toEqual(await q.check(ip, 'kb', ONE, T));
    expect(q.checkNow(ip, 'kb', ONE, T)).toEqual({ kind: 'allow', penalized: true });
    expect(q.checkNow(ip, 'ka', ONE, T)).toEqual({ kind: 'allow', penalized: false });

    const real = createSqliteQuotaStore(createMemoryDb(), { flushIntervalMs: 60_000 });
    const asyncOnly: QuotaStore = {
      driver: 'redis',
      peek: (...a) => real.peek(...a),
      consume: (...a) => real.consume(...a),
      readMany: (...a) => real.readMany(...a),
      gc: (...a) => real.gc(...a),
      clear: (...a) => real.clear(...a),
      close: () => real.close(),
    };
    const other = runtime([pool()], asyncOnly).q;
    const ip2 = other.poolOf('kb', 'c1');
    if (!ip2) throw new Error('no pool');
    expect(other.checkNow(ip2, 'kb', ONE, T)).toBeNull();
    await real.consume('bob', { key: 'team:requests:hourly', windowMs: HOUR }, 10, T);
    expect(await other.check(ip2, 'kb', ONE, T)).toEqual({ kind: 'allow', penalized: true });
  });

  it('QPIPE-1/7: the gate answers without a promise when nobody is held or penalized, and demotes a penalized pool', async () => {
    const two = pool({ id: 'p2', name: 'other', connectionIds: ['c2'] });
    const { q, store } = runtime([pool(), two]);
    const targets = ['c2', 'c1', 'c9'];
    const plain = gateCandidates(q, 'kb', targets, (t) => t, ONE, T);
    if (plain instanceof Promise) throw new Error('expected a synchronous gate');
    expect(plain.allowed).toEqual(['c2', 'c1', 'c9']);
    expect([...plain.covered].sort()).toEqual(['c1', 'c2']);
    expect(plain.penalized.size).toBe(0);
    // bob (soft) at his share of pool "team" only: c1 goes after the others.
    await store.consume('bob', { key: 'team:requests:hourly', windowMs: HOUR }, 10, T);
    const demoted = gateCandidates(q, 'kb', targets, (t) => t, ONE, T);
    expect(demoted).toBeInstanceOf(Promise);
    const gate = await demoted;
    expect(gate.allowed).toEqual(['c2', 'c9', 'c1']);
    expect([...gate.penalized]).toEqual(['c1']);
    expect(gate.blocked).toEqual([]);
  });

  it('QPIPE-5: every answer recorded in one turn is counted after it, each on its own key', async () => {
    const { q, store } = runtime([pool()]);
    const served = { usage: null, model: 'claude-sonnet-4-5', windows: [] };
    for (let i = 0; i < 3; i++) q.record('ka', 'c1', served, T);
    q.record('kb', 'c1', served, T);
    q.record('kz', 'c1', served, T);
    const ref = { key: 'team:requests:hourly', windowMs: HOUR };
    expect(await store.peek('alice', ref, T)).toBe(0);
    await new Promise((r) => setImmediate(r));
    expect(await store.peek('alice', ref, T)).toBe(3);
    expect(await store.peek('bob', ref, T)).toBe(1);
    // And again on a later turn: the queue's slots are reused.
    q.record('ka', 'c1', served, T);
    await new Promise((r) => setImmediate(r));
    expect(await store.peek('alice', ref, T)).toBe(4);
  });
});
