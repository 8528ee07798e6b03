import { buildSnapshot } from '../quota/pool-snapshot';
import { afterEach, describe, expect, it } from 'vitest';
import { createCombosRepo } from '../db/combos-repo';
import { createConnectionsRepo } from '../db/connections-repo';
import { createKeysRepo } from '../db/keys-repo';
import { createQuotaPoolsRepo } from '../db/quota-pools-repo';
import { createRoutesRepo } from '../db/routes-repo';
import { createMemoryDb } from '../testing/temp-db';
import { applyConfig } from './apply-config';
import { parseConfig, storedNamesOf } from './load-config';

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

function repos() {
  const db = createMemoryDb();
  closers.push(() => db.close());
  const box = { kind: 'plain-test', seal: (plain: string) => plain, open: (sealed: string) => sealed };
  return {
    db,
    connections: createConnectionsRepo(db, box),
    keys: createKeysRepo(db),
    combos: createCombosRepo(db),
    routes: createRoutesRepo(db),
    quotaPools: createQuotaPoolsRepo(db, buildSnapshot),
  };
}

const hourly = (limit: number) => ({ unit: 'requests', window: 'hourly', limit });

/** The issue's own example (§5), beside a Kimi connection with a manual plan. */
const FILE = {
  connections: [
    { name: 'max-1', kind: 'anthropic', apiKey: 'sk-ant-api03-aaaa' },
    { name: 'kimi-1', kind: 'openai-compatible', baseUrl: 'https://api.moonshot.ai/v1', apiKey: 'sk-kimi-bbbb' },
  ],
  keys: [
    { name: 'alice', key: 'lw-0123456789abcdef' },
    { name: 'bob', key: 'lw-fedcba9876543210' },
  ],
  pools: [
    {
      name: 'team',
      connection: 'max-1',
      dimensions: [hourly(1500)],
      allocations: [
        { key: 'alice', weight: 50, policy: 'hard' },
        { key: 'bob', weight: 50, policy: 'soft', capValue: 200, capUnit: 'requests' },
      ],
    },
  ],
  plans: [{ connection: 'kimi-1', dimensions: [hourly(900)] }],
};

const parsed = (file: unknown, known = new Set<string>(), stored?: Parameters<typeof parseConfig>[2]) =>
  parseConfig(JSON.stringify(file), known, stored);
const problemsOf = (file: unknown) => {
  const result = parsed(file);
  return result.ok ? [] : result.problems;
};

describe('config: quota pools and plans', () => {
  it('QUI-12 QPLAN-1: the issue example is applied: pool by name with keys and connection, plan override', () => {
    const r = repos();
    const loaded = parsed(FILE);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
    expect(applyConfig(r, loaded.value, 1)).toEqual({
      ok: true,
      value: { connections: 2, keys: 2, combos: 0, routes: null, pools: 1, plans: 1, unchanged: 0 },
    });
    expect(r.quotaPools.list()).toMatchObject([
      {
        name: 'team',
        connections: ['max-1'],
        effectiveDimensions: [hourly(1500)],
        allocations: [
          { key: 'alice', weight: 50, policy: 'hard', capValue: null },
          { key: 'bob', weight: 50, policy: 'soft', capValue: 200, capUnit: 'requests' },
        ],
      },
    ]);
    const kimi = r.connections.getByName('kimi-1');
    expect(r.quotaPools.plans().get(kimi?.id ?? '')).toEqual([hourly(900)]);
  });

  it('QUI-12: re-applying the same file is a no-op for pools and plans', () => {
    const r = repos();
    const loaded = parsed(FILE);
    if (!loaded.ok) throw new Error('invalid');
    applyConfig(r, loaded.value, 1);
    const pools = r.quotaPools.list();
    const plans = r.quotaPools.plans();
    expect(applyConfig(r, loaded.value, 2).ok).toBe(true);
    expect(r.quotaPools.list()).toEqual(pools);
    expect(r.quotaPools.list()[0]?.updatedAt).toBe(1);
    expect(r.quotaPools.plans()).toEqual(plans);
    // A file without pools or plans keeps what is stored (upsert by name, never a removal).
    const bare = parsed({ connections: FILE.connections, keys: FILE.keys });
    if (!bare.ok) throw new Error('invalid');
    applyConfig(r, bare.value, 3);
    expect(r.quotaPools.list()).toEqual(pools);
  });

  it('QUI-12: an unknown key, connection, unit or window is a problem with its path, all reported at once', () => {
    const problems = problemsOf({
      connections: FILE.connections,
      keys: FILE.keys,
      pools: [
        {
          name: 'team',
          connection: 'max-9',
          connections: ['kimi-1', 'ghost'],
          dimensions: [{ unit: 'hours', window: 'hourly', limit: 1 }],
          allocations: [{ key: 'alice' }, { key: 'carol' }],
        },
        {
          name: 'solo',
          connection: 'max-1',
          dimensions: [{ unit: 'requests', window: 'fortnightly', limit: 1 }],
          allocations: [{ key: 'bob' }],
        },
        { name: 'ok', connection: 'max-1', allocations: [{ key: 'carol' }] },
      ],
      plans: [
        { connection: 'ghost', dimensions: [hourly(1)] },
        { connection: 'kimi-1', dimensions: [] },
      ],
    });
    expect(problems).toEqual([
      { path: 'pools.0.dimensions.0.unit', message: expect.any(String) as string },
      { path: 'pools.1.dimensions.0.window', message: expect.any(String) as string },
      { path: 'pools.2.allocations.0.key', message: 'no key named "carol"' },
      { path: 'plans.0.connection', message: 'no connection named "ghost"' },
      { path: 'plans.1.dimensions', message: 'needs at least one dimension' },
    ]);
    // Once the schema is satisfied, the names are judged: each field where the person wrote it.
    const names = problemsOf({
      connections: FILE.connections,
      keys: FILE.keys,
      pools: [
        {
          name: 'team',
          connection: 'max-9',
          connections: ['kimi-1', 'ghost'],
          allocations: [{ key: 'alice' }, { key: 'carol' }],
        },
      ],
    });
    expect(names).toEqual([
      { path: 'pools.0.connection', message: 'no connection named "max-9"' },
      { path: 'pools.0.connections.1', message: 'no connection named "ghost"' },
      { path: 'pools.0.allocations.1.key', message: 'no key named "carol"' },
    ]);
  });

  it('QUI-12: shape problems from the shared schema keep their paths (weights, duplicates, caps)', () => {
    const problems = problemsOf({
      connections: FILE.connections,
      keys: FILE.keys,
      pools: [
        {
          name: 'a',
          connection: 'max-1',
          allocations: [
            { key: 'alice', weight: 70 },
            { key: 'bob', weight: 40 },
          ],
        },
        { name: 'b', connection: 'max-1', allocations: [{ key: 'alice', capValue: 5 }] },
        { name: 'a', connection: 'max-1', allocations: [{ key: 'alice' }] },
        { name: 'c', allocations: [{ key: 'alice' }] },
      ],
      plans: [
        { connection: 'kimi-1', dimensions: [hourly(1)] },
        { connection: 'kimi-1', dimensions: [hourly(2)] },
      ],
    });
    expect(problems).toEqual([
      { path: 'pools.0.allocations', message: 'weights add up to more than 100' },
      { path: 'pools.1.allocations.0.capUnit', message: 'capValue and capUnit go together' },
      { path: 'pools.2.name', message: 'duplicate pool name "a"' },
      { path: 'pools.3.connection', message: 'name a connection (connection or connections)' },
      { path: 'plans.1.connection', message: 'a second plan for "kimi-1"' },
    ]);
  });

  it('QUI-12: a pool may name keys and connections only the database knows; a revoked key is unknown', () => {
    const r = repos();
    r.connections.upsert(
      {
        name: 'stored',
        kind: 'anthropic',
        baseUrl: null,
        models: [],
        modelAliases: {},
        priority: 1,
        enabled: true,
        maxConcurrent: null,
        disableCooling: false,
        providerSpecificData: {},
      },
      1,
    );
    const dana = r.keys.create({ name: 'dana' }, 1);
    const gone = r.keys.create({ name: 'gone' }, 1);
    if (!dana.ok || !gone.ok) throw new Error('keys');
    r.keys.revoke(gone.value.key.id, 2);
    const file = { pools: [{ name: 'p', connection: 'stored', allocations: [{ key: 'dana' }, { key: 'gone' }] }] };
    const result = parsed(file, new Set(['stored']), storedNamesOf(r));
    expect(result).toEqual({
      ok: false,
      problems: [{ path: 'pools.0.allocations.1.key', message: 'no key named "gone"' }],
    });
    const fine = parsed(
      { pools: [{ ...file.pools[0], allocations: [{ key: 'dana' }] }] },
      new Set(['stored']),
      storedNamesOf(r),
    );
    if (!fine.ok) throw new Error(JSON.stringify(fine.problems));
    expect(applyConfig(r, fine.value, 3)).toMatchObject({ ok: true, value: { pools: 1 } });
  });

  it('QUI-12: a pool that fails at apply time (its key stays revoked) rolls the whole file back', () => {
    const r = repos();
    const alice = r.keys.create({ name: 'alice', key: 'lw-0123456789abcdef' }, 1);
    if (!alice.ok) throw new Error('key');
    r.keys.revoke(alice.value.key.id, 2);
    // The file declares alice again with the same key, which leaves her revoked (keys repo rule).
    const loaded = parsed(FILE, new Set(), storedNamesOf(r));
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
    expect(applyConfig(r, loaded.value, 3)).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: 'pools: "team": allocations.0.key: key "alice" is revoked' },
    });
    expect(r.connections.list()).toEqual([]);
    expect(r.quotaPools.list()).toEqual([]);
    expect(r.quotaPools.plans().size).toBe(0);
  });
});
