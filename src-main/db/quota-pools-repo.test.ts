import { buildSnapshot } from '../quota/pool-snapshot';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectionInputSchema, type ConnectionInput } from '../../src-shared/domain/connection';
import { quotaPoolInputSchema, type QuotaPoolInput } from '../../src-shared/domain/quota';
import type { SecretBox } from '../secrets/secret-box';
import { createMemoryDb } from '../testing/temp-db';
import { createConnectionsRepo } from './connections-repo';
import { createKeysRepo } from './keys-repo';
import { findMigrationsDir } from './migrate';
import { createQuotaPoolsRepo } from './quota-pools-repo';

const box: SecretBox = { kind: 'fake', seal: (p) => p, open: (s) => s };
const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

const conn = (input: Partial<ConnectionInput> & { name: string }) =>
  connectionInputSchema.parse({ kind: 'anthropic', secret: { type: 'api-key', apiKey: 'sk-test-000' }, ...input });
const spec = (input: QuotaPoolInput) => quotaPoolInputSchema.parse(input);
const hourly = (limit: number) => ({ unit: 'requests' as const, window: 'hourly' as const, limit });

function setUp() {
  const db = createMemoryDb();
  closers.push(() => db.close());
  let n = 0;
  const connections = createConnectionsRepo(db, box, () => `c-${++n}`);
  const keys = createKeysRepo(db, () => `k-${++n}`);
  const pools = createQuotaPoolsRepo(db, buildSnapshot, () => `p-${++n}`);
  const max1 = connections.upsert(conn({ name: 'max-1' }), 1);
  const max2 = connections.upsert(conn({ name: 'max-2' }), 1);
  const kimi = connections.upsert(
    conn({ name: 'kimi-1', kind: 'openai-compatible', baseUrl: 'https://api.moonshot.ai/v1' }),
    1,
  );
  const keyId = (name: string): string => {
    const created = keys.create({ name }, 1);
    if (!created.ok) throw new Error(created.error.message);
    return created.value.key.id;
  };
  const alice = keyId('alice');
  const bob = keyId('bob');
  return { db, connections, keys, pools, max1, max2, kimi, alice, bob };
}

const team: QuotaPoolInput = {
  name: 'team',
  connection: 'max-1',
  dimensions: [hourly(1500)],
  allocations: [
    { key: 'alice', weight: 50, policy: 'hard' },
    { key: 'bob', weight: 50, policy: 'soft', capValue: 200, capUnit: 'requests' },
  ],
};

describe('quota pools repo', () => {
  it('QDB-1 QDB-2: stores a pool by name with its connections and allocations in order, names resolved to ids', () => {
    const { pools, max1, alice, bob } = setUp();
    const saved = pools.upsert(spec(team), 10);
    expect(saved).toEqual({
      ok: true,
      value: {
        id: expect.any(String),
        name: 'team',
        connections: ['max-1'],
        dimensions: [hourly(1500)],
        effectiveDimensions: [hourly(1500)],
        dimensionsSource: 'pool',
        allocations: [
          {
            keyId: alice,
            key: 'alice',
            weight: 50,
            effectiveWeight: 50,
            policy: 'hard',
            capValue: null,
            capUnit: null,
          },
          {
            keyId: bob,
            key: 'bob',
            weight: 50,
            effectiveWeight: 50,
            policy: 'soft',
            capValue: 200,
            capUnit: 'requests',
          },
        ],
        saturationThreshold: null,
        createdAt: 10,
        updatedAt: 10,
      },
    });
    expect(pools.list()).toEqual([saved.ok ? saved.value : null]);
    expect(pools.resolved()).toEqual([
      {
        id: saved.ok ? saved.value.id : '',
        name: 'team',
        connectionIds: [max1.id],
        dimensions: [hourly(1500)],
        saturationThreshold: null,
        allocations: [
          {
            keyId: alice,
            keyName: 'alice',
            weight: 50,
            effectiveWeight: 50,
            policy: 'hard',
            capValue: null,
            capUnit: null,
          },
          {
            keyId: bob,
            keyName: 'bob',
            weight: 50,
            effectiveWeight: 50,
            policy: 'soft',
            capValue: 200,
            capUnit: 'requests',
          },
        ],
      },
    ]);
  });

  it('QDB-1: upserting the same name replaces members and allocations, keeping id and creation time', () => {
    const { pools, max1, max2, bob } = setUp();
    const first = pools.upsert(spec(team), 10);
    const second = pools.upsert(
      spec({ name: 'team', connections: ['max-2', 'max-1'], allocations: [{ key: 'bob', weight: 0 }] }),
      20,
    );
    expect(first.ok && second.ok && second.value.id === first.value.id).toBe(true);
    expect(second).toMatchObject({
      ok: true,
      value: { connections: ['max-2', 'max-1'], dimensions: [], createdAt: 10, updatedAt: 20 },
    });
    expect(pools.list()).toHaveLength(1);
    const [resolved] = pools.resolved();
    expect(resolved?.connectionIds).toEqual([max2.id, max1.id]);
    // QFAIR equal split: every weight 0 → 100 / n.
    expect(resolved?.allocations).toEqual([expect.objectContaining({ keyId: bob, weight: 0, effectiveWeight: 100 })]);
  });

  it('QFAIR: an all-zero pool splits equally; a mixed one keeps the written weights', () => {
    const { pools } = setUp();
    pools.upsert(spec({ ...team, allocations: [{ key: 'alice' }, { key: 'bob' }] }), 1);
    expect(pools.list()[0]?.allocations.map((a) => a.effectiveWeight)).toEqual([50, 50]);
    pools.upsert(spec({ ...team, allocations: [{ key: 'alice', weight: 30 }, { key: 'bob' }] }), 2);
    expect(pools.list()[0]?.allocations.map((a) => a.effectiveWeight)).toEqual([30, 0]);
  });

  it('QDB-1: refuses unknown keys and connections with their paths, all at once, writing nothing', () => {
    const { pools } = setUp();
    const result = pools.upsert(
      spec({
        name: 'team',
        connections: ['max-1', 'ghost'],
        allocations: [{ key: 'alice' }, { key: 'carol' }],
      }),
      1,
    );
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'invalid_input',
        message: 'connections.1: no connection named "ghost"; allocations.1.key: no key named "carol"',
        details: {
          issues: [
            { path: 'connections.1', message: 'no connection named "ghost"' },
            { path: 'allocations.1.key', message: 'no key named "carol"' },
          ],
        },
      },
    });
    expect(pools.list()).toEqual([]);
  });

  it('QDB-2: a revoked key is refused, and revoking a member key drops its allocation from list and resolved', () => {
    const { pools, keys, alice, bob } = setUp();
    expect(pools.upsert(spec(team), 1).ok).toBe(true);
    keys.revoke(bob, 2);
    expect(pools.list()[0]?.allocations.map((a) => a.key)).toEqual(['alice']);
    expect(pools.resolved()[0]?.allocations.map((a) => a.keyId)).toEqual([alice]);
    const again = pools.upsert(spec(team), 3);
    expect(again).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_input',
        details: { issues: [{ path: 'allocations.1.key', message: 'key "bob" is revoked' }] },
      },
    });
  });

  it('QDB-2: deleting a key cascades its allocation away', () => {
    const { db, pools, bob } = setUp();
    pools.upsert(spec(team), 1);
    db.prepare('DELETE FROM local_keys WHERE id = ?').run(bob);
    expect(pools.list()[0]?.allocations.map((a) => a.key)).toEqual(['alice']);
    expect(db.prepare('SELECT COUNT(*) AS n FROM quota_allocations').get()).toEqual({ n: 1 });
  });

  it('QDB-1: removing a connection drops it from the pool; a pool left with none stays listed but leaves resolved', () => {
    const { pools, connections, max2 } = setUp();
    pools.upsert(spec({ ...team, connection: undefined, connections: ['max-1', 'max-2'] }), 1);
    connections.remove('max-1');
    expect(pools.list()[0]?.connections).toEqual(['max-2']);
    expect(pools.resolved()[0]?.connectionIds).toEqual([max2.id]);
    connections.remove('max-2');
    expect(pools.list()).toMatchObject([{ name: 'team', connections: [], allocations: [{}, {}] }]);
    expect(pools.resolved()).toEqual([]);
  });

  it('QDB-1 QDB-4: the same pool or plan written again changes no row (a config file re-applied is a no-op)', () => {
    const { db, pools, kimi } = setUp();
    const first = pools.upsert(spec(team), 1);
    pools.setPlan(kimi.id, [hourly(900)], 1);
    const changes = () => db.prepare('SELECT total_changes() AS n').get();
    const before = changes();
    expect(pools.upsert(spec(team), 2)).toEqual(first);
    pools.setPlan(kimi.id, [hourly(900)], 2);
    expect(changes()).toEqual(before);
    // A real difference (order of allocations) is written.
    const swapped = pools.upsert(spec({ ...team, allocations: [...team.allocations].reverse() }), 3);
    expect(swapped).toMatchObject({
      ok: true,
      value: { updatedAt: 3, allocations: [{ key: 'bob' }, { key: 'alice' }] },
    });
  });

  it('QDB-1: remove deletes the pool with its members and allocations', () => {
    const { db, pools } = setUp();
    pools.upsert(spec(team), 1);
    expect(pools.remove('team')).toBe(true);
    expect(pools.remove('team')).toBe(false);
    expect(pools.list()).toEqual([]);
    const count = (table: string) => db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get();
    expect([count('quota_pool_connections'), count('quota_allocations')]).toEqual([{ n: 0 }, { n: 0 }]);
  });

  it('QDB-4 QPLAN-1 QPLAN-3: a pool without dimensions uses its first connection plan: override, else catalog, else none', () => {
    const { pools, kimi } = setUp();
    const kimiPool = { name: 'kimi', connection: 'kimi-1', allocations: [{ key: 'alice' }] };
    const maxPool = { name: 'max', connection: 'max-1', allocations: [{ key: 'alice' }] };
    pools.upsert(spec(kimiPool), 1);
    pools.upsert(spec(maxPool), 1);
    const byName = () => new Map(pools.list().map((p) => [p.name, p]));
    expect(byName().get('kimi')).toMatchObject({ dimensionsSource: 'catalog', effectiveDimensions: [hourly(1500)] });
    expect(byName().get('max')).toMatchObject({ dimensionsSource: 'none', effectiveDimensions: [] });

    pools.setPlan(kimi.id, [hourly(900)], 5);
    expect(pools.plans()).toEqual(new Map([[kimi.id, [hourly(900)]]]));
    expect(byName().get('kimi')).toMatchObject({ dimensionsSource: 'manual-plan', effectiveDimensions: [hourly(900)] });
    expect(pools.resolved().find((p) => p.name === 'kimi')?.dimensions).toEqual([hourly(900)]);

    pools.setPlan(kimi.id, [hourly(800)], 6);
    expect(pools.plans().get(kimi.id)).toEqual([hourly(800)]);
    expect(pools.removePlan(kimi.id)).toBe(true);
    expect(pools.removePlan(kimi.id)).toBe(false);
    expect(byName().get('kimi')).toMatchObject({ dimensionsSource: 'catalog' });
  });

  it('QDB-4: a plan override goes with its connection', () => {
    const { pools, connections, kimi } = setUp();
    pools.setPlan(kimi.id, [hourly(900)], 5);
    connections.remove('kimi-1');
    expect(pools.plans().size).toBe(0);
  });

  it('QDB-1: resolved() is served from memory until a row changes, through this repo or another', () => {
    const { pools, keys, bob } = setUp();
    pools.upsert(spec(team), 1);
    const first = pools.resolved();
    expect(pools.resolved()).toBe(first);
    keys.revoke(bob, 2);
    const second = pools.resolved();
    expect(second).not.toBe(first);
    expect(second[0]?.allocations).toHaveLength(1);
  });

  it('QDB-1: a pool written inside a transaction that rolls back is not remembered', () => {
    const { db, pools } = setUp();
    const attempt = db.transaction(() => {
      expect(pools.upsert(spec(team), 1).ok).toBe(true);
      expect(pools.list()).toHaveLength(1);
      throw new Error('roll back');
    });
    expect(() => attempt()).toThrow('roll back');
    expect(pools.list()).toEqual([]);
    expect(pools.resolved()).toEqual([]);
  });

  it('QDB-5: running migration 0009 again on a populated database changes nothing', () => {
    const { db, pools } = setUp();
    pools.upsert(spec(team), 1);
    const before = pools.list();
    const dir = findMigrationsDir(fileURLToPath(new URL('.', import.meta.url)));
    const sql = readFileSync(join(dir ?? '', '0009_quota.sql'), 'utf8');
    db.exec(sql);
    db.exec(sql);
    expect(pools.list()).toEqual(before);
  });
});
