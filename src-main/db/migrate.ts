import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Database } from './open';
import { messageOf, readMigrationFiles, type MigrateResult } from './migration-files';

export type { MigrateError, MigrateResult } from './migration-files';

/** What a successful migration did: schema versions before and after, and the files applied. */
export interface MigrateOutcome {
  from: number;
  to: number;
  applied: string[];
}

/**
 * Brings `db` up to the newest migration in `dir`. All pending files run in ONE transaction that
 * also sets `PRAGMA user_version`, so a failure leaves the database exactly as it was. A database
 * whose version is newer than every file (written by a newer Leeway) is refused untouched.
 */
export function migrate(db: Database, dir: string): MigrateResult<MigrateOutcome> {
  const files = readMigrationFiles(dir);
  if (!files.ok) return files;

  const from = readUserVersion(db);
  const latest = files.value.at(-1)?.version ?? 0;
  if (from > latest) {
    return {
      ok: false,
      error: {
        code: 'database_too_new',
        message: `the database is at schema version ${from} but this Leeway only knows up to ${latest}; it was written by a newer version`,
      },
    };
  }

  const pending = files.value.filter((file) => file.version > from);
  if (pending.length === 0) return { ok: true, value: { from, to: from, applied: [] } };

  let current = '';
  const applyAll = db.transaction(() => {
    for (const file of pending) {
      current = file.name;
      db.exec(file.sql);
    }
    // user_version lives in the database header and is rolled back with the transaction.
    db.pragma(`user_version = ${latest}`);
  });
  try {
    applyAll();
  } catch (error) {
    return {
      ok: false,
      error: { code: 'migration_failed', message: `${current} failed: ${messageOf(error)}`, cause: error },
    };
  }
  return { ok: true, value: { from, to: latest, applied: pending.map((file) => file.name) } };
}

/** The schema version recorded in the database header (0 for a fresh database). */
export function readUserVersion(db: Database): number {
  const value: unknown = db.pragma('user_version', { simple: true });
  return typeof value === 'number' ? value : 0;
}

/**
 * Walks up from `startDir` to the first `migrations` folder holding `0001_init.sql`: the built app
 * runs from out/main/, tests from src-main/db/, and both find the repository's folder this way.
 */
export function findMigrationsDir(startDir: string): string | null {
  let dir = startDir;
  for (;;) {
    const candidate = join(dir, 'migrations');
    if (existsSync(join(candidate, '0001_init.sql'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}
