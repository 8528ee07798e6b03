import type { LocalQuotaStore } from '../quota/quota-ports';
import { createLocalQuotaStore, type LocalQuotaStoreOptions } from '../quota/store/local-store';
import type { Database } from '../db/open';
import { createQuotaBucketRows } from '../db/quota-bucket-rows';

export type SqliteQuotaStoreOptions = LocalQuotaStoreOptions;

/** The default quota counter store (QDRV-1): the local counters over SQLite, on an already migrated database. */
export function createSqliteQuotaStore(db: Database, opts: SqliteQuotaStoreOptions = {}): LocalQuotaStore {
  return createLocalQuotaStore(createQuotaBucketRows(db), opts);
}
