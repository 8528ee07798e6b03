import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fail, ok, type Result } from '../../src-shared/contract/errors';
import { createKeyFileSecretBox } from '../secrets/key-file-box';
import type { SecretBox } from '../secrets/secret-box';
import { createAffinityRepo, type AffinityRepo } from './affinity-repo';
import { createCombosRepo, type CombosRepo } from './combos-repo';
import { createConnectionsRepo, type ConnectionsRepo } from './connections-repo';
import { createKeysRepo, type KeysRepo } from './keys-repo';
import { createLeasesRepo, type LeasesRepo } from './leases-repo';
import { findMigrationsDir, migrate } from './migrate';
import { openDatabase, type Database } from './open';
import type { QuotaPoolsRepo } from '../quota/quota-ports';
import { createQuotaPoolsRepo } from './quota-pools-repo';
import { createRequestLog, type RequestLog } from './request-log-repo';
import { createRoutesRepo, type RoutesRepo } from './routes-repo';
import { createSettingsRepo, type SettingsRepo } from './settings-repo';

/** The opened database with every repository over it. */
export interface Storage {
  db: Database;
  connections: ConnectionsRepo;
  keys: KeysRepo;
  combos: CombosRepo;
  settings: SettingsRepo;
  requestLog: RequestLog;
  /** Session pins, written behind (flushed on the core's timer and in `close`). */
  affinity: AffinityRepo;
  /** Exclusive leases, written at once on each lifecycle change. */
  leases: LeasesRepo;
  /** Model routes in order. */
  routes: RoutesRepo;
  /** Quota pools, their allocations and manual plan overrides (issue 10). */
  quotaPools: QuotaPoolsRepo;
  /** Flushes the request log and the pins, then closes the database. */
  close(): void;
  /** Closes without writing what is buffered: the data directory is gone, so a write would go nowhere. */
  abandon(): void;
}

/** Where the migrations are: beside the sources in development, in resources when packaged. */
export function locateMigrations(): string | null {
  const here = dirname(fileURLToPath(import.meta.url));
  const resources = (process as NodeJS.Process & { resourcesPath?: string }).resourcesPath;
  return findMigrationsDir(here) ?? (resources ? findMigrationsDir(resources) : null);
}

/** Opens and migrates the database; a refused migration is an answer, and leaves the file untouched. */
export function openStorage(
  file: string,
  dataDir: string,
  box?: SecretBox,
  migrationsDir = locateMigrations(),
  now = Date.now(),
): Result<Storage> {
  if (!migrationsDir) return fail('internal_error', 'The migrations folder was not found next to Leeway');
  let db: Database;
  try {
    db = openDatabase(file);
  } catch (error) {
    return fail('internal_error', `Cannot open the database ${file}: ${(error as Error).message}`);
  }
  const migrated = migrate(db, migrationsDir);
  if (!migrated.ok) {
    db.close();
    return fail('internal_error', `Database ${file}: ${migrated.error.message}`, {
      details: { code: migrated.error.code },
    });
  }
  // The core's 1 s timer writes what a quiet second leaves; under load, batches of 128 rows. Rows
  // held longer than a couple of young GCs (a second at 2,000 requests/s) reach the old space and die
  // there, forcing mark-compacts; 128 rows cost the same per row and keep each write short.
  const requestLog = createRequestLog(db, { flushEvery: 128 });
  // `now` drops the pins that expired while Leeway was not running.
  const affinity = createAffinityRepo(db, now);
  return ok({
    db,
    connections: createConnectionsRepo(db, box ?? createKeyFileSecretBox(dataDir)),
    keys: createKeysRepo(db),
    combos: createCombosRepo(db),
    settings: createSettingsRepo(db),
    requestLog,
    affinity,
    leases: createLeasesRepo(db),
    routes: createRoutesRepo(db),
    quotaPools: createQuotaPoolsRepo(db),
    close() {
      try {
        requestLog.flush();
        affinity.flush();
      } finally {
        db.close();
      }
    },
    abandon() {
      try {
        db.close();
      } catch {
        // SQLite may fail to checkpoint into a deleted folder; the connection is released either way.
      }
    },
  });
}
