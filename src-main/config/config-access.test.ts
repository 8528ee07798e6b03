import { buildSnapshot } from '../quota/pool-snapshot';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryDb } from '../testing/temp-db';
import { createCombosRepo } from '../db/combos-repo';
import { createConnectionsRepo } from '../db/connections-repo';
import { createKeysRepo } from '../db/keys-repo';
import { createQuotaPoolsRepo } from '../db/quota-pools-repo';
import { createRoutesRepo } from '../db/routes-repo';
import { applyConfig } from './apply-config';
import { parseConfig, storedNamesOf } from './load-config';

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** Scopes, strategy and routes as the issue shows them, beside a connection that lists its models. */
const FILE = {
  connections: [
    { name: 'max-1', kind: 'anthropic', apiKey: 'sk-ant-api03-aaaa' },
    {
      name: 'max-2',
      kind: 'anthropic',
      apiKey: 'sk-ant-api03-bbbb',
      models: ['claude-opus-4-8'],
      modelAliases: { opus: 'claude-opus-4-8' },
    },
  ],
  keys: [
    { name: 'claude-code', key: 'lw-0123456789abcdef' },
    { name: 'agent', key: 'lw-fedcba9876543210', scopes: ['lease:exclusive'], allowedConnections: ['max-1', 'max-2'] },
  ],
  combos: [
    { name: 'main', targets: ['max-1', 'max-2'], strategy: 'round-robin' },
    { name: 'cheap', targets: [{ connection: 'max-1', model: 'claude-haiku-4-5' }] },
  ],
  routes: [
    { match: '*haiku*', to: 'cheap' },
    { match: 'claude-opus-*', to: 'opus' },
    { match: 'gpt-?', to: 'max-2/claude-opus-4-8' },
    { match: '*', to: 'main' },
  ],
};

const problemsOf = (file: unknown, known = new Set<string>()) => {
  const result = parseConfig(JSON.stringify(file), known);
  return result.ok ? [] : result.problems;
};

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

describe('config: keys access, combo strategy, routes', () => {
  it('LEASE-3 ISSUE9-STRATEGY ISSUE9-ROUTES: a valid file is applied: scopes, allowed connections, strategy and routes in order', () => {
    const parsed = parseConfig(JSON.stringify(FILE), new Set());
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const r = repos();
    expect(applyConfig(r, parsed.value, 1)).toEqual({
      ok: true,
      value: { connections: 2, keys: 2, combos: 2, routes: 4, pools: 0, plans: 0, unchanged: 0 },
    });
    expect(r.keys.list().map((k) => [k.name, k.scopes, k.allowedConnections])).toEqual([
      ['agent', ['lease:exclusive'], ['max-1', 'max-2']],
      ['claude-code', [], []],
    ]);
    expect(r.combos.getByName('main')?.strategy).toBe('round-robin');
    expect(r.combos.getByName('cheap')?.strategy).toBe('priority');
    expect(r.routes.list()).toEqual(FILE.routes);
  });

  it('ISSUE9-ROUTES: a file without routes keeps the stored ones; an empty list clears them', () => {
    const r = repos();
    const first = parseConfig(JSON.stringify(FILE), new Set());
    if (!first.ok) throw new Error('invalid');
    applyConfig(r, first.value, 1);
    const withoutRoutes = parseConfig(JSON.stringify({ ...FILE, routes: undefined }), new Set());
    if (!withoutRoutes.ok) throw new Error('invalid');
    expect(withoutRoutes.value.routes).toBeNull();
    applyConfig(r, withoutRoutes.value, 2);
    expect(r.routes.list()).toHaveLength(4);
    const empty = parseConfig(JSON.stringify({ ...FILE, routes: [] }), new Set());
    if (!empty.ok) throw new Error('invalid');
    applyConfig(r, empty.value, 3);
    expect(r.routes.list()).toEqual([]);
  });

  it('LEASE-3: an unknown connection in allowedConnections, an unknown scope and a lease key without connections are problems with their paths', () => {
    const problems = problemsOf({
      connections: FILE.connections,
      keys: [
        { name: 'a', key: 'lw-0123456789abcdef', allowedConnections: ['max-1', 'ghost'] },
        { name: 'b', key: 'lw-0123456789abcdeg', scopes: ['admin'] },
        { name: 'c', key: 'lw-0123456789abcdeh', scopes: ['lease:exclusive'] },
      ],
    });
    expect(problems).toEqual([
      { path: 'keys.0.allowedConnections.1', message: 'unknown connection "ghost"' },
      expect.objectContaining({ path: 'keys.1.scopes.0' }),
      {
        path: 'keys.2.allowedConnections',
        message: 'is required (non-empty) for a key with the "lease:exclusive" scope',
      },
    ]);
  });

  it('LEASE-3: allowedConnections may name a connection that exists only in the database', () => {
    expect(
      problemsOf(
        { keys: [{ name: 'a', key: 'lw-0123456789abcdef', allowedConnections: ['stored'] }] },
        new Set(['stored']),
      ),
    ).toEqual([]);
  });

  it('ISSUE9-STRATEGY: an unknown strategy is a problem at its path', () => {
    const problems = problemsOf({
      connections: FILE.connections,
      combos: [{ name: 'm', targets: ['max-1'], strategy: 'sticky' }],
    });
    expect(problems.map((p) => p.path)).toEqual(['combos.0.strategy']);
  });

  it('ISSUE9-ROUTES: a route to nothing known, a bare connection name, a malformed route and routes after a catch-all are errors with their paths', () => {
    const problems = problemsOf({
      connections: FILE.connections,
      combos: FILE.combos,
      routes: [
        { match: '*haiku*', to: 'nowhere' },
        { match: 'x', to: 'max-1' },
        { match: 'has space', to: 'main' },
        { match: '*', to: 'main' },
        { match: '*sonnet*', to: 'main', extra: true },
        { match: '*opus*', to: 'ghost/claude-opus-4-8' },
      ],
    });
    expect(problems).toEqual([
      { path: 'routes.2.match', message: 'may contain printable characters without spaces only' },
      expect.objectContaining({ path: 'routes.4' }),
      { path: 'routes.0.to', message: '"nowhere" is not a combo, a connection/model or a model a connection lists' },
      { path: 'routes.1.to', message: '"max-1" is not a combo, a connection/model or a model a connection lists' },
      { path: 'routes.5.match', message: 'is unreachable: route 4 ("*") matches every model first' },
      {
        path: 'routes.5.to',
        message: '"ghost/claude-opus-4-8" is not a combo, a connection/model or a model a connection lists',
      },
    ]);
  });

  it('ISSUE9-ROUTES: a repeated glob is unreachable too, ignoring case like the matcher', () => {
    const problems = problemsOf({
      combos: [],
      connections: FILE.connections,
      routes: [
        { match: 'GPT-*', to: 'opus' },
        { match: 'gpt-*', to: 'opus' },
      ],
    });
    expect(problems).toEqual([{ path: 'routes.1.match', message: 'is unreachable: route 1 has the same match' }]);
  });

  it('ISSUE9-ROUTES: a route may name a combo or a model only the database knows', () => {
    const r = repos();
    r.connections.upsert(
      {
        name: 'stored',
        kind: 'anthropic',
        baseUrl: null,
        models: ['m-1'],
        modelAliases: {},
        priority: 1,
        enabled: true,
        maxConcurrent: null,
        disableCooling: false,
        providerSpecificData: {},
      },
      1,
    );
    r.combos.upsert({ name: 'db-combo', targets: [{ connection: 'stored', model: null }] }, 1);
    const file = JSON.stringify({
      routes: [
        { match: 'a*', to: 'db-combo' },
        { match: 'b*', to: 'm-1' },
        { match: 'c*', to: 'db-combo/m-2' },
      ],
    });
    expect(parseConfig(file, new Set(['stored'])).ok).toBe(false);
    expect(parseConfig(file, new Set(['stored']), storedNamesOf(r)).ok).toBe(true);
  });
});
