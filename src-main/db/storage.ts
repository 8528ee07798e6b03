import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fail, ok, type Result } from '../../src-shared/contract/errors';
import { createKeyFileSecretBox } from '../secrets/key-file-box';
import type { SecretBox } from '../secrets/secret-box';
import type { AffinityRepo, PinRows } from '../routing/affinity/pin-store';
import { createPinRows } from './affinity-rows';
import {
  announceCombos,
  announceConnections,
  announceKeys,
  announceQuotaPools,
  announceRoutes,
} from './announced-repos';
import { createCombosRepo, type CombosRepo } from './combos-repo';
import { createConnectionsRepo, type ConnectionsRepo } from './connections-repo';
import { createDiscoveredModelsRepo } from './discovered-models-repo';
import type { DiscoveredModelsRepo } from '../providers/models-discovery-store';
import { createKeysRepo, type KeysRepo } from './keys-repo';
import type { LeaseRows, LeasesRepo } from '../routing/leases/lease-store';
import { createLeaseRows } from './lease-rows';
import { findMigrationsDir, migrate } from './migrate';
import { openDatabase, type Database } from './open';
import type { QuotaPoolsRepo } from '../quota/quota-ports';
import { createQuotaPoolsRepo, type SnapshotBuilder } from './quota-pools-repo';
import { createRequestLog, type RequestLog } from './request-log-repo';
import { createRequestLogSeries, type RequestLogSeries } from './request-log-series';
import { createRoutesRepo, type RoutesRepo } from './routes-repo';
import { createSettingsRepo, type SettingsRepo } from './settings-repo';
import { createChangeTracking, type StorageChanges } from './storage-changes';
import { describeStartFault, storageFaultOf } from './storage-fault';
import { attachStorageHealth, createStorageHealth, type StorageHealth } from './storage-health';

/** The opened database with every repository over it. */
export interface Storage {
  /** For the composition root only (engine rows, the quota counters); handlers use the repositories. */
  db: Database;
  /**
   * Issue 22: a committed write to connections, combos, routes, keys or quota pools is announced
   * here (storage-changes.ts); the catalog service rebuilds from it.
   */
  changes: StorageChanges;
  /** Runs `work` in one transaction; the changes it announced are told after the commit. */
  atomically<T>(work: () => T): T;
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
  /** The models each connection's upstream listed (issue 13 §5), as discovery wrote them through. */
  discoveredModels: DiscoveredModelsRepo;
  /** The Overview's aggregation of the request log (statements prepared on first use). */
  series: RequestLogSeries;
  /** Issue 21 §16: whether writes reach the disk now; the write-through repositories report to it. */
  health: StorageHealth;
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

/** A disk that refuses the first writes is the one line a start gives (issue 21 §16), else `otherwise`. */
function refusal(dataDir: string, error: unknown, otherwise: string): Result<never> {
  const fault = storageFaultOf(error);
  return fault ? fail('storage_unavailable', describeStartFault(dataDir, fault)) : fail('internal_error', otherwise);
}

/** Opens and migrates the database; a refused migration is an answer, and leaves the file untouched. */
export interface StorageOptions {
  /** Electron's safeStorage in the app; the 0600 key file in the data directory otherwise. */
  box?: SecretBox | undefined;
  migrationsDir?: string | null;
  /** When the storage opens (expired pins are dropped then). */
  now?: number;
  clock?: () => number;
  /** The engines' stores over their rows (core/engine-stores.ts): db/ holds SQL only. */
  engines: EngineStores;
}

/** What the engines make of their stored rows; given by the composition root, never run in db/. */
export interface EngineStores {
  /** The quota engine's reading of the quota tables (quota/pool-snapshot.ts). */
  quotaSnapshot: SnapshotBuilder;
  /** Session pins in memory over their rows (routing/affinity/pin-store.ts). */
  pins(rows: PinRows, now: number): AffinityRepo;
  /** The lease book over its rows (routing/leases/lease-store.ts). */
  leases(rows: LeaseRows): LeasesRepo;
}

export function openStorage(file: string, dataDir: string, options: StorageOptions): Result<Storage> {
  const { box, engines } = options;
  const migrationsDir = options.migrationsDir === undefined ? locateMigrations() : options.migrationsDir;
  const now = options.now ?? Date.now();
  const clock = options.clock ?? Date.now;
  if (!migrationsDir) return fail('internal_error', 'The migrations folder was not found next to Leeway');
  let db: Database;
  try {
    db = openDatabase(file);
  } catch (error) {
    return refusal(dataDir, error, `Cannot open the database ${file}: ${(error as Error).message}`);
  }
  const migrated = migrate(db, migrationsDir);
  if (!migrated.ok) {
    db.close();
    const fault = storageFaultOf(migrated.error.cause);
    if (fault) return fail('storage_unavailable', describeStartFault(dataDir, fault));
    return fail('internal_error', `Database ${file}: ${migrated.error.message}`, {
      details: { code: migrated.error.code },
    });
  }
  const health = createStorageHealth(clock);
  attachStorageHealth(db, health);
  // The core's 1 s timer writes what a quiet second leaves; under load, batches of 128 rows. Rows
  // held longer than a couple of young GCs (a second at 2,000 requests/s) reach the old space and die
  // there, forcing mark-compacts; 128 rows cost the same per row and keep each write short.
  let requestLog: RequestLog;
  try {
    requestLog = createRequestLog(db, { flushEvery: 128, health });
  } catch (error) {
    // Its id reservation is the first write after the migrations: a disk full or read-only since.
    db.close();
    return refusal(dataDir, error, `Database ${file}: ${(error as Error).message}`);
  }
  // `now` drops the pins that expired while Leeway was not running.
  const affinity = engines.pins(createPinRows(db), now);
  const { changes, atomically } = createChangeTracking(db);
  let series: RequestLogSeries | null = null;
  return ok({
    db,
    changes,
    atomically,
    connections: announceConnections(createConnectionsRepo(db, box ?? createKeyFileSecretBox(dataDir)), changes),
    keys: announceKeys(createKeysRepo(db), changes),
    combos: announceCombos(createCombosRepo(db), changes),
    settings: createSettingsRepo(db),
    requestLog,
    affinity,
    leases: engines.leases(createLeaseRows(db)),
    routes: announceRoutes(createRoutesRepo(db), changes),
    quotaPools: announceQuotaPools(createQuotaPoolsRepo(db, engines.quotaSnapshot), changes),
    discoveredModels: createDiscoveredModelsRepo(db),
    series: { series: (range, at) => (series ??= createRequestLogSeries(db)).series(range, at) },
    health,
    close() {
      try {
        // A disk that still refuses keeps them unwritten (reported, not thrown): the core says how many.
        requestLog.flush();
        affinity.flush();
      } catch (error) {
        if (!health.report(error)) throw error;
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
