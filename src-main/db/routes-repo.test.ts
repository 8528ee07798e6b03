import { mkdtempSync, readdirSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Route } from '../../src-shared/domain/route';
import { createMemoryDb, createTempDb } from '../testing/temp-db';
import { createCombosRepo } from './combos-repo';
import { createKeysRepo } from './keys-repo';
import { findMigrationsDir, migrate } from './migrate';
import { openDatabase } from './open';
import { createRoutesRepo } from './routes-repo';

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

const RECIPE: Route[] = [
  { match: '*haiku*', to: 'cheap' },
  { match: 'gpt-?', to: 'openai/gpt-5' },
  { match: '*', to: 'main' },
];

describe('routes repo', () => {
  it('ISSUE9-ROUTES: stores the list in its order and reads it back in that order after a reopen', () => {
    const temp = createTempDb();
    closers.push(temp.close);
    expect(createRoutesRepo(temp.db).list()).toEqual([]);
    expect(createRoutesRepo(temp.db).replace(RECIPE)).toEqual(RECIPE);
    temp.db.close();
    const reopened = openDatabase(temp.file);
    closers.push(() => reopened.close());
    expect(createRoutesRepo(reopened).list()).toEqual(RECIPE);
  });

  it('ISSUE9-ROUTES: replace swaps the whole list (reordered, shorter, empty), never merging with the old one', () => {
    const db = createMemoryDb();
    closers.push(() => db.close());
    const routes = createRoutesRepo(db);
    routes.replace(RECIPE);
    const reordered = [RECIPE[2], RECIPE[0]].filter((r): r is Route => r !== undefined);
    expect(routes.replace(reordered)).toEqual(reordered);
    expect(routes.list()).toEqual(reordered);
    expect(routes.replace([])).toEqual([]);
  });

  it('ISSUE9-ROUTES: a failing replace leaves the previous list whole (one transaction)', () => {
    const db = createMemoryDb();
    closers.push(() => db.close());
    const routes = createRoutesRepo(db);
    routes.replace(RECIPE);
    // The table's CHECK refuses an over-long target: the delete before it must roll back too.
    expect(() =>
      routes.replace([
        { match: 'a', to: 'b' },
        { match: 'c', to: 'x'.repeat(201) },
      ]),
    ).toThrow(/CHECK/);
    expect(routes.list()).toEqual(RECIPE);
  });
});

describe('migration 0007', () => {
  it('LEASE-3 ISSUE9-STRATEGY: upgrading a version-6 database keeps keys and combos, with no scopes, all connections and priority', () => {
    const shipped = findMigrationsDir(fileURLToPath(new URL('.', import.meta.url)));
    if (!shipped) throw new Error('migrations not found');
    const upTo6 = mkdtempSync(join(tmpdir(), 'leeway-mig6-'));
    closers.push(() => rmSync(upTo6, { recursive: true, force: true }));
    for (const name of readdirSync(shipped).filter((n) => /^000[1-6]_/.test(n)))
      copyFileSync(join(shipped, name), join(upTo6, name));
    writeFileSync(join(upTo6, 'README'), 'only 0001-0006');
    const db = openDatabase(':memory:');
    closers.push(() => db.close());
    expect(migrate(db, upTo6)).toMatchObject({ ok: true, value: { to: 6 } });
    db.prepare(
      "INSERT INTO local_keys (id, name, key_hash, prefix, created_at) VALUES ('k', 'old', ?, 'lw-old', 1)",
    ).run('a'.repeat(64));
    db.prepare(
      `INSERT INTO combos (id, name, targets_json, created_at, updated_at) VALUES ('b', 'main', '[{"connection":"x","model":null}]', 1, 1)`,
    ).run();

    const upgraded = migrate(db, shipped);
    expect(upgraded).toMatchObject({ ok: true, value: { from: 6 } });
    // Later migrations may follow; 0007 is the first one applied over a version-6 database.
    expect(upgraded.ok && upgraded.value.applied.slice(0, 2)).toEqual([
      '0007_keys_combos_routes.sql',
      '0008_request_log_session_pin.sql',
    ]);
    expect(createKeysRepo(db).list()).toMatchObject([{ name: 'old', scopes: [], allowedConnections: [] }]);
    expect(createCombosRepo(db).list()).toMatchObject([
      { name: 'main', strategy: 'priority', targets: [{ connection: 'x', model: null }] },
    ]);
    expect(createRoutesRepo(db).list()).toEqual([]);
  });

  it('ISSUE-23: a route’s subagents option is stored and read back; a route without it reads back without it', () => {
    const db = createMemoryDb();
    closers.push(() => db.close());
    const routes: Route[] = [
      { match: '*haiku*', to: 'cheap', subagents: 'spread' },
      { match: 'opus*', to: 'main', subagents: 'share' },
      { match: '*', to: 'main' },
    ];
    expect(createRoutesRepo(db).replace(routes)).toEqual(routes);
    expect(() => db.prepare("UPDATE routes SET subagents = 'scatter' WHERE position = 0").run()).toThrow(/CHECK/);
  });
});
