import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One numbered migration file, e.g. `0002_quota.sql` -> version 2. */
export interface MigrationFile {
  version: number;
  name: string;
  sql: string;
}

/** Why migrating refused or failed; a startup problem the core reports, never a thrown bug. */
export interface MigrateError {
  code: 'migration_gap' | 'database_too_new' | 'migration_failed';
  message: string;
  /** The error a failed migration threw (a full disk's SQLITE_FULL, say). */
  cause?: unknown;
}

export type MigrateResult<T> = { ok: true; value: T } | { ok: false; error: MigrateError };

/** `NNNN_name.sql`; other files (README, editor backups) in the folder are ignored. */
const MIGRATION_NAME = /^(\d{4})_[A-Za-z0-9_.-]+\.sql$/;

/**
 * Reads the migrations in `dir`, sorted by number. Refuses duplicates and gaps (numbering must be
 * 1, 2, 3 … without holes) so a half-copied folder never silently skips a schema step.
 */
export function readMigrationFiles(dir: string): MigrateResult<MigrationFile[]> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    return {
      ok: false,
      error: { code: 'migration_failed', message: `cannot read migrations folder ${dir}: ${messageOf(error)}` },
    };
  }
  const files: MigrationFile[] = [];
  for (const name of names) {
    const match = MIGRATION_NAME.exec(name);
    if (!match?.[1]) continue;
    files.push({ version: Number(match[1]), name, sql: readFileSync(join(dir, name), 'utf8') });
  }
  files.sort((a, b) => a.version - b.version || a.name.localeCompare(b.name));

  for (const [index, file] of files.entries()) {
    const expected = index + 1;
    if (file.version === expected) continue;
    const previous = files[index - 1];
    const message =
      previous && previous.version === file.version
        ? `two migrations share number ${file.version}: ${previous.name} and ${file.name}`
        : `migration ${expected} is missing: found ${file.name} after ${previous ? previous.name : 'nothing'}`;
    return { ok: false, error: { code: 'migration_gap', message } };
  }
  return { ok: true, value: files };
}

/** The message of an unknown thrown value, for wrapping I/O and SQLite errors into data. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
