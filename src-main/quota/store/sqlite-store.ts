import { QUOTA_WINDOW_MS } from '../../../src-shared/domain/quota';
import type { Database } from '../../db/open';
import { bucketIndexOf } from '../engine/sliding-window';
import type { BucketPairs, DimensionRef, QuotaStore } from '../quota-ports';
import { effectiveAt, rollTo, viewAt, type BucketPair } from './bucket-pair';
import { createKeyedMutex } from './keyed-mutex';

/**
 * The default quota counter store (QDRV-1) over `quota_consumption`, written behind so the request
 * path never waits on a SQLite write (issue 10).
 *
 * Correctness: only one Headroom may open a data directory (its lock), so while this process runs
 * its in-memory pairs ARE the counters. A pair is loaded once, lazily, on first touch of its
 * (key, dimension) with one prepared SELECT of its two rows — lazily because only the caller knows a
 * dimension's window, and most stored rows belong to keys or windows no request will touch again.
 * Every consume updates the pair and records the touched row's absolute value in `pending`; a timer
 * (unref'd) and `close()` write all pending rows as ONE transaction of upserts. Absolute values make
 * a flush idempotent, so a failed flush simply stays pending and is retried on the next tick.
 *
 * Loss window: a crash loses at most one flush interval of consumption, i.e. the counters under-count
 * by what was served in that interval — the drift QPIPE-N1 accepts.
 */
export interface SqliteQuotaStore extends QuotaStore {
  /** Writes every pending row in one transaction now; returns how many rows it wrote. */
  flush(): number;
}

export interface SqliteQuotaStoreOptions {
  /** How often pending rows are written; default 1 000 ms. */
  flushIntervalMs?: number;
  /** Where a failed background flush is reported (the rows stay pending). */
  log?: (line: string) => void;
}

interface PendingRow {
  keyId: string;
  dimKey: string;
  index: number;
  consumed: number;
  updatedAt: number;
}

interface StoredRow {
  bucket_index: number;
  consumed: number;
  updated_at: number;
}

const DEFAULT_FLUSH_INTERVAL_MS = 1_000;

/** Opens the SQLite store on an already migrated database; the caller keeps owning `db`. */
export function createSqliteQuotaStore(db: Database, opts: SqliteQuotaStoreOptions = {}): SqliteQuotaStore {
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
  const writeAll = db.transaction((rows: PendingRow[]) => {
    for (const r of rows) upsert.run(r.keyId, r.dimKey, r.index, r.consumed, r.updatedAt);
  });

  // Keyed by `apiKeyId|dimensionKey` (the QWIN-4 mutex key too); pending by that plus `|index`.
  const pairs = new Map<string, BucketPair & { keyId: string }>();
  const pending = new Map<string, PendingRow>();
  const mutex = createKeyedMutex();
  let closed = false;

  const pairOf = (keyId: string, dim: DimensionRef, now: number): BucketPair & { keyId: string } => {
    const id = `${keyId}|${dim.key}`;
    const index = bucketIndexOf(now, dim.windowMs);
    let pair = pairs.get(id);
    if (!pair) {
      pair = { keyId, index, prev: 0, curr: 0, prevAt: 0, currAt: 0, touchedAt: now };
      for (const row of selectPair.all(keyId, dim.key, index, index - 1)) {
        if (row.bucket_index === index) {
          pair.curr = row.consumed;
          pair.currAt = row.updated_at;
        } else {
          pair.prev = row.consumed;
          pair.prevAt = row.updated_at;
        }
      }
      pairs.set(id, pair);
    }
    pair.touchedAt = Math.max(pair.touchedAt, now);
    return pair;
  };

  const flush = (): number => {
    if (pending.size === 0) return 0;
    const rows = [...pending.values()];
    writeAll(rows);
    // Only after the commit: a throw above leaves every row pending for the next attempt.
    for (const r of rows) {
      const id = `${r.keyId}|${r.dimKey}|${r.index}`;
      if (pending.get(id) === r) pending.delete(id);
    }
    return rows.length;
  };

  const timer = setInterval(() => {
    // The core closes the database after the store; until close() comes there is nothing to do.
    if (!db.open) return;
    try {
      flush();
    } catch (error) {
      opts.log?.(`[quota:factory] sqlite flush failed, ${pending.size} rows kept for the next try: ${String(error)}`);
    }
  }, opts.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS);
  timer.unref();

  const ensureOpen = (): void => {
    if (closed) throw new Error('quota store is closed');
  };

  const consumeNow = (keyId: string, dim: DimensionRef, amount: number, now: number): number => {
    ensureOpen();
    const pair = pairOf(keyId, dim, now);
    const index = bucketIndexOf(now, dim.windowMs);
    rollTo(pair, index);
    const at = Math.floor(now);
    let value: number;
    if (index === pair.index) {
      pair.curr += amount;
      pair.currAt = Math.max(pair.currAt, at);
      value = pair.curr;
    } else if (index === pair.index - 1) {
      // A late record for the previous bucket (its request started before the boundary).
      pair.prev += amount;
      pair.prevAt = Math.max(pair.prevAt, at);
      value = pair.prev;
    } else {
      // Two or more buckets back: it no longer counts in any window this pair can be read in.
      return effectiveAt(pair, now, dim.windowMs);
    }
    const updatedAt = index === pair.index ? pair.currAt : pair.prevAt;
    pending.set(`${keyId}|${dim.key}|${index}`, { keyId, dimKey: dim.key, index, consumed: value, updatedAt });
    return effectiveAt(pair, now, dim.windowMs);
  };

  return {
    driver: 'sqlite',
    peek(keyId, dim, now) {
      return Promise.resolve().then(() => {
        ensureOpen();
        return effectiveAt(pairOf(keyId, dim, now), now, dim.windowMs);
      });
    },
    consume(keyId, dim, amount, now) {
      // The update itself is synchronous, so the mutex is what QWIN-4 asks for rather than a need
      // today; it keeps each counter's read-modify-write ordered if a step ever becomes async.
      return mutex.run(`${keyId}|${dim.key}`, () => consumeNow(keyId, dim, amount, now));
    },
    readMany(keyIds, dims, now) {
      return Promise.resolve().then((): BucketPairs => {
        ensureOpen();
        const prev = new Float64Array(keyIds.length * dims.length);
        const curr = new Float64Array(keyIds.length * dims.length);
        keyIds.forEach((keyId, k) => {
          dims.forEach((dim, d) => {
            const view = viewAt(pairOf(keyId, dim, now), bucketIndexOf(now, dim.windowMs));
            prev[k * dims.length + d] = view.prev;
            curr[k * dims.length + d] = view.curr;
          });
        });
        return { prev, curr };
      });
    },
    gc(retentionMs, now) {
      return Promise.resolve().then(() => {
        ensureOpen();
        flush();
        const cutoff = now - retentionMs;
        const removed = deleteOlder.run({ cutoff: Math.floor(cutoff), now: Math.floor(now) }).changes;
        // Everything was just flushed, so the table is the truth: forget memory and reload on next touch.
        if (removed > 0) pairs.clear();
        return removed;
      });
    },
    clear(keyId) {
      return Promise.resolve().then(() => {
        ensureOpen();
        const mine = (owner: string): boolean => keyId === undefined || owner === keyId;
        for (const [id, pair] of pairs) if (mine(pair.keyId)) pairs.delete(id);
        for (const [id, row] of pending) if (mine(row.keyId)) pending.delete(id);
        if (keyId === undefined) deleteAll.run();
        else deleteKey.run(keyId);
      });
    },
    flush: () => {
      ensureOpen();
      return flush();
    },
    close() {
      return Promise.resolve().then(() => {
        if (closed) return;
        clearInterval(timer);
        closed = true;
        if (db.open) flush();
      });
    },
  };
}
