import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { findMigrationsDir, migrate, readUserVersion } from './migrate';
import { openDatabase, type Database } from './open';

const here = fileURLToPath(new URL('.', import.meta.url));
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A temp folder holding the given migration files. */
function migrationsDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'leeway-mig-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, sql] of Object.entries(files)) writeFileSync(join(dir, name), sql);
  return dir;
}

function memoryDb(): Database {
  const db = openDatabase(':memory:');
  cleanups.push(() => db.close());
  return db;
}

const tables = (db: Database): string[] =>
  db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((row) => row.name);

describe('migrate', () => {
  it('PROD-3: brings a fresh database to the newest shipped migration', () => {
    const dir = findMigrationsDir(here);
    expect(dir).not.toBeNull();
    const db = memoryDb();
    const result = migrate(db, dir ?? '');
    expect(result).toMatchObject({
      ok: true,
      value: {
        from: 0,
        to: 20,
        applied: [
          '0001_init.sql',
          '0002_resilience.sql',
          '0003_needs_reauth.sql',
          '0004_served_via.sql',
          '0005_request_log_seq.sql',
          '0006_affinity_leases.sql',
          '0007_keys_combos_routes.sql',
          '0008_request_log_session_pin.sql',
          '0009_quota.sql',
          '0010_combo_strategies.sql',
          '0011_rate_limit_overrides.sql',
          '0012_request_log_held.sql',
          '0013_egress.sql',
          '0014_translation.sql',
          '0015_activity_detail.sql',
          '0016_discovered_models.sql',
          '0017_request_log_queued.sql',
          '0018_request_log_egress_trigger.sql',
          '0019_gemini_kind.sql',
          '0020_request_log_cache_lost.sql',
        ],
      },
    });
    expect(readUserVersion(db)).toBe(20);
    expect(tables(db)).toEqual([
      'combos',
      'connection_health',
      'connections',
      'discovered_models',
      'local_keys',
      'provider_breakers',
      'provider_plans',
      'quota_allocations',
      'quota_consumption',
      'quota_pool_connections',
      'quota_pools',
      'request_log',
      'request_log_seq',
      'routes',
      'session_account_affinity',
      'session_leases',
      'settings',
    ]);
  });

  it('PROD-3: creates STRICT tables with CHECK constraints', () => {
    const db = memoryDb();
    migrate(db, findMigrationsDir(here) ?? '');
    const insert = (kind: string, enabled: unknown) => () =>
      db
        .prepare(
          'INSERT INTO connections (id, name, kind, priority, enabled, disable_cooling, created_at, updated_at) VALUES (?, ?, ?, 1, ?, 0, 0, 0)',
        )
        .run(`id-${kind}-${String(enabled)}`, `n-${kind}-${String(enabled)}`, kind, enabled);
    expect(insert('mistral', 1)).toThrow(/CHECK/);
    // Issue 23: the gemini kind (0019).
    expect(insert('gemini', 1)).not.toThrow();
    expect(insert('openai', 2)).toThrow(/CHECK/);
    expect(insert('openai', 'yes')).toThrow(/cannot store TEXT value in INTEGER column/);
    expect(insert('openai', 1)).not.toThrow();
  });

  it('QDB-1..5: the quota tables are STRICT, created IF NOT EXISTS, and guard their columns', () => {
    const shipped = findMigrationsDir(here) ?? '';
    const sql = readFileSync(join(shipped, '0009_quota.sql'), 'utf8');
    const creates = sql.match(/CREATE (TABLE|INDEX)\b[^;]*/g) ?? [];
    expect(creates.length).toBeGreaterThanOrEqual(5);
    for (const statement of creates) expect(statement).toMatch(/^CREATE (TABLE|INDEX) IF NOT EXISTS /);
    const db = memoryDb();
    migrate(db, shipped);
    const strict = db
      .prepare<[], { name: string }>(
        "SELECT name FROM pragma_table_list WHERE strict = 1 AND (name LIKE 'quota_%' OR name = 'provider_plans')",
      )
      .all()
      .map((t) => t.name)
      .sort();
    expect(strict).toEqual([
      'provider_plans',
      'quota_allocations',
      'quota_consumption',
      'quota_pool_connections',
      'quota_pools',
    ]);
    db.prepare("INSERT INTO quota_pools (id, name, created_at, updated_at) VALUES ('p', 'team', 0, 0)").run();
    expect(() =>
      db
        .prepare(
          "INSERT INTO quota_pools (id, name, saturation_threshold, created_at, updated_at) VALUES ('q', 'x', 2, 0, 0)",
        )
        .run(),
    ).toThrow(/CHECK/);
    // Membership and allocations point at real rows (foreign keys are on).
    expect(() =>
      db
        .prepare("INSERT INTO quota_pool_connections (pool_id, connection_id, position) VALUES ('p', 'ghost', 0)")
        .run(),
    ).toThrow(/FOREIGN KEY/);
    // QDB-5: the file applied a second time over live tables is harmless.
    expect(() => db.exec(sql)).not.toThrow();
    expect(db.prepare('SELECT COUNT(*) AS n FROM quota_pools').get()).toEqual({ n: 1 });
  });

  it('PROD-3: running again is a no-op', () => {
    const dir = migrationsDir({
      '0001_a.sql': 'CREATE TABLE a (x INTEGER) STRICT;',
      '0002_b.sql': 'CREATE TABLE b (y TEXT) STRICT;',
    });
    const db = memoryDb();
    expect(migrate(db, dir)).toEqual({ ok: true, value: { from: 0, to: 2, applied: ['0001_a.sql', '0002_b.sql'] } });
    expect(migrate(db, dir)).toEqual({ ok: true, value: { from: 2, to: 2, applied: [] } });
  });

  it('PROD-3: applies only the pending files after an upgrade', () => {
    const dir = migrationsDir({ '0001_a.sql': 'CREATE TABLE a (x INTEGER) STRICT;' });
    const db = memoryDb();
    migrate(db, dir);
    writeFileSync(join(dir, '0002_b.sql'), 'CREATE TABLE b (y TEXT) STRICT;');
    expect(migrate(db, dir)).toEqual({ ok: true, value: { from: 1, to: 2, applied: ['0002_b.sql'] } });
    expect(tables(db)).toEqual(['a', 'b']);
  });

  it('PROD-3: refuses a gap in numbering without touching the database', () => {
    const dir = migrationsDir({
      '0001_a.sql': 'CREATE TABLE a (x INTEGER);',
      '0002_b.sql': 'CREATE TABLE b (x INTEGER);',
      '0004_d.sql': 'CREATE TABLE d (x INTEGER);',
    });
    const db = memoryDb();
    const result = migrate(db, dir);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('migration_gap');
      expect(result.error.message).toContain('migration 3 is missing');
    }
    expect(tables(db)).toEqual([]);
    expect(readUserVersion(db)).toBe(0);
  });

  it('PROD-3: refuses numbering that does not start at 1', () => {
    const dir = migrationsDir({ '0002_b.sql': 'CREATE TABLE b (x INTEGER);' });
    expect(migrate(memoryDb(), dir)).toMatchObject({ ok: false, error: { code: 'migration_gap' } });
  });

  it('PROD-3: refuses two migrations with the same number', () => {
    const dir = migrationsDir({ '0001_a.sql': 'SELECT 1;', '0002_b.sql': 'SELECT 1;', '0002_c.sql': 'SELECT 1;' });
    const result = migrate(memoryDb(), dir);
    expect(result).toMatchObject({ ok: false, error: { code: 'migration_gap' } });
    if (!result.ok) expect(result.error.message).toContain('0002_b.sql and 0002_c.sql');
  });

  it('PROD-3: refuses a database from the future and leaves it untouched', () => {
    const dir = migrationsDir({ '0001_a.sql': 'CREATE TABLE a (x INTEGER);' });
    const db = memoryDb();
    db.pragma('user_version = 7');
    const result = migrate(db, dir);
    expect(result).toMatchObject({ ok: false, error: { code: 'database_too_new' } });
    if (!result.ok) expect(result.error.message).toMatch(/version 7.*up to 1/);
    expect(readUserVersion(db)).toBe(7);
    expect(tables(db)).toEqual([]);
  });

  it('PROD-3: a failing migration rolls back every pending file and keeps user_version', () => {
    const dir = migrationsDir({
      '0001_a.sql': 'CREATE TABLE a (x INTEGER) STRICT;',
      '0002_b.sql': 'CREATE TABLE b (y TEXT) STRICT; INSERT INTO a (x) VALUES (1);',
      '0003_bad.sql': 'CREATE TABLE c (z INTEGER) STRICT; INSERT INTO nowhere VALUES (1);',
    });
    const db = memoryDb();
    const result = migrate(db, dir);
    expect(result).toMatchObject({ ok: false, error: { code: 'migration_failed' } });
    if (!result.ok) expect(result.error.message).toMatch(/^0003_bad\.sql failed: no such table: nowhere/);
    expect(tables(db)).toEqual([]);
    expect(readUserVersion(db)).toBe(0);
  });

  it('PROD-3: a failure after earlier successful runs keeps the previous version and data', () => {
    const dir = migrationsDir({ '0001_a.sql': 'CREATE TABLE a (x INTEGER) STRICT; INSERT INTO a VALUES (1);' });
    const db = memoryDb();
    migrate(db, dir);
    writeFileSync(join(dir, '0002_bad.sql'), 'DELETE FROM a; CREATE TABLE a (x INTEGER);');
    expect(migrate(db, dir)).toMatchObject({ ok: false, error: { code: 'migration_failed' } });
    expect(readUserVersion(db)).toBe(1);
    expect(db.prepare('SELECT COUNT(*) AS n FROM a').get()).toEqual({ n: 1 });
  });

  it('PROD-3: ignores files that are not numbered migrations', () => {
    const dir = migrationsDir({
      '0001_a.sql': 'CREATE TABLE a (x INTEGER);',
      'README.md': '# notes',
      'scratch.sql': 'DROP TABLE a;',
    });
    expect(migrate(memoryDb(), dir)).toMatchObject({ ok: true, value: { to: 1, applied: ['0001_a.sql'] } });
  });

  it('PROD-3: reports a missing migrations folder as data', () => {
    expect(migrate(memoryDb(), join(tmpdir(), 'leeway-does-not-exist-xyz'))).toMatchObject({
      ok: false,
      error: { code: 'migration_failed' },
    });
  });
});

describe('findMigrationsDir', () => {
  it('PROD-3: walks up from a nested folder to the repository migrations', () => {
    const found = findMigrationsDir(join(here, 'deeper', 'still'));
    expect(found).toBe(join(here, '..', '..', 'migrations'));
  });

  it('PROD-3: returns null when no ancestor holds migrations/0001_init.sql', () => {
    const dir = mkdtempSync(join(tmpdir(), 'leeway-nomig-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    expect(findMigrationsDir(dir)).toBeNull();
  });
});
