import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';

/** The better-sqlite3 connection type every repository takes. */
export type Database = BetterSqlite3.Database;

/** How long a statement waits on a lock held by another connection before failing. */
const BUSY_TIMEOUT_MS = 5_000;

/** True for SQLite's in-memory and temporary (anonymous) database names, which have no file. */
function isInMemory(file: string): boolean {
  return file === '' || file === ':memory:' || file.startsWith('file::memory:');
}

/**
 * Opens Leeway's SQLite database with the pragmas every repository relies on: WAL (files only),
 * foreign keys on, a busy timeout and synchronous=NORMAL. Creates the parent directory if missing.
 */
export function openDatabase(file: string): Database {
  const inMemory = isInMemory(file);
  // 0700: the directory holds the database and the secret key file.
  if (!inMemory) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    // SQLite creates the file 0644 and gives its -wal/-shm the main file's mode: create it 0600 first.
    closeSync(openSync(file, 'a', 0o600));
    if (process.platform !== 'win32') chmodSync(file, 0o600);
  }
  const db = new BetterSqlite3(file, { timeout: BUSY_TIMEOUT_MS });
  try {
    // WAL lets the UI read while the proxy writes; meaningless (and refused) for :memory:.
    if (!inMemory) db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    // NORMAL is durable across application crashes in WAL mode; only a power loss can lose the
    // last commits, which is acceptable for an activity log and cheap settings writes.
    db.pragma('synchronous = NORMAL');
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
