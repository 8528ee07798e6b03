import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findMigrationsDir, migrate } from '../db/migrate';
import { openDatabase, type Database } from '../db/open';

/** A migrated database in its own temporary directory, for tests that need a real file (WAL, bytes). */
export interface TempDb {
  db: Database;
  /** The fresh directory holding `leeway.sqlite`; also usable as a data dir (secret key file). */
  dir: string;
  /** Path of the database file inside `dir`. */
  file: string;
  /** Closes the database and deletes the directory; safe to call twice. */
  close(): void;
}

/** Opens a migrated file database in a fresh `os.tmpdir()/leeway-…` directory. */
export function createTempDb(): TempDb {
  const dir = mkdtempSync(join(tmpdir(), 'leeway-'));
  const file = join(dir, 'leeway.sqlite');
  const db = openDatabase(file);
  const close = (): void => {
    if (db.open) db.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    migrateOrThrow(db);
  } catch (error) {
    close();
    throw error;
  }
  return { db, dir, file, close };
}

/** A migrated `:memory:` database: the cheap default for repository unit tests. */
export function createMemoryDb(): Database {
  const db = openDatabase(':memory:');
  migrateOrThrow(db);
  return db;
}

/** Test helper: a migration failure here is a broken schema, so failing loudly is the point. */
function migrateOrThrow(db: Database): void {
  const migrations = findMigrationsDir(fileURLToPath(new URL('.', import.meta.url)));
  if (!migrations) throw new Error('migrations folder not found');
  const result = migrate(db, migrations);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
}
