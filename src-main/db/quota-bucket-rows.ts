import { QUOTA_WINDOW_MS } from '../../src-shared/domain/quota';
import type { QuotaBucketRows, StoredBucket } from '../quota/quota-ports';
import type { Database } from './open';
import { reportStorageFault } from './storage-health';

interface StoredRow {
  bucket_index: number;
  consumed: number;
  updated_at: number;
}

/** The quota counters' rows in `quota_consumption` (SQL only; quota/store/local-store.ts keeps the counters). */
export function createQuotaBucketRows(db: Database): QuotaBucketRows {
  const selectPair = db.prepare<[string, string, number, number], StoredRow>(
    `SELECT bucket_index, consumed, updated_at FROM quota_consumption
      WHERE api_key_id = ? AND dimension_key = ? AND bucket_index IN (?, ?)`,
  );
  const upsert = db.prepare<[string, string, number, number, number]>(
    `INSERT INTO quota_consumption (api_key_id, dimension_key, bucket_index, consumed, updated_at)
     VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (api_key_id, dimension_key, bucket_index)
     DO UPDATE SET consumed = excluded.consumed, updated_at = excluded.updated_at`,
  );
  // Old by age AND out of its window: a monthly bucket last written 20 days ago still counts, so the
  // 14-day retention (QENV-3) must not cut it. The window is the dimension key's suffix.
  const deleteOlder = db.prepare<{ cutoff: number; now: number }>(
    `DELETE FROM quota_consumption WHERE updated_at < @cutoff AND bucket_index < (@now / CASE
       WHEN dimension_key LIKE '%:5h' THEN ${QUOTA_WINDOW_MS['5h']}
       WHEN dimension_key LIKE '%:hourly' THEN ${QUOTA_WINDOW_MS.hourly}
       WHEN dimension_key LIKE '%:daily' THEN ${QUOTA_WINDOW_MS.daily}
       WHEN dimension_key LIKE '%:weekly' THEN ${QUOTA_WINDOW_MS.weekly}
       WHEN dimension_key LIKE '%:monthly' THEN ${QUOTA_WINDOW_MS.monthly}
       ELSE 1 END) - 1`,
  );
  const deleteKey = db.prepare<[string]>('DELETE FROM quota_consumption WHERE api_key_id = ?');
  const deleteAll = db.prepare('DELETE FROM quota_consumption');
  const writeAll = db.transaction((rows: readonly StoredBucket[]) => {
    for (const r of rows) upsert.run(r.keyId, r.dimKey, r.index, r.consumed, r.updatedAt);
  });

  return {
    pair: (keyId, dimKey, index) =>
      selectPair
        .all(keyId, dimKey, index, index - 1)
        .map((row) => ({ index: row.bucket_index, consumed: row.consumed, updatedAt: row.updated_at })),
    writeAll: (rows) => writeAll(rows),
    deleteOlder: (cutoff, now) => deleteOlder.run({ cutoff, now }).changes,
    deleteKey: (keyId) => void deleteKey.run(keyId),
    deleteAll: () => void deleteAll.run(),
    isOpen: () => db.open,
    reportFault: (error) => reportStorageFault(db, error),
  };
}
