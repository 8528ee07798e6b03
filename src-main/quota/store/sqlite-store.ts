import { QUOTA_WINDOW_MS } from '../../../src-shared/domain/quota';
import { reportStorageFault } from '../../db/storage-health';
import type { Database } from '../../db/open';
import { bucketIndexOf } from '../engine/sliding-window';
import type { BucketPairs, DimensionRef, QuotaStore, QuotaStoreNow } from '../quota-ports';
import { effectiveAt, rollTo, viewCurr, viewPrev, type BucketPair } from './bucket-pair';
import { createKeyedMutex } from './keyed-mutex';

/**
 * The default quota counter store (QDRV-1) over `quota_consumption`, written behind so the request
 * path never waits on a SQLite write (issue 10).
 *
 * Correctness: only one Leeway may open a data directory (its lock), so while this process runs
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
  /** Always there: every answer comes from memory (a first touch reads its two rows synchronously). */
  sync(): QuotaStoreNow;
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

/** A pair in memory with the pending writes of its two rows (see `consumeNow`). */
interface StorePair extends BucketPair {
  keyId: string;
  prevRow: PendingRow | null;
  currRow: PendingRow | null;
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

  // By dimension key, then api key id: a lookup builds no string. Each pair points at its two rows'
  // pending writes (null once none), so a consume updates one row in place instead of making one.
  const pairs = new Map<string, Map<string, StorePair>>();
  const pending = new Set<PendingRow>();
  const mutex = createKeyedMutex();
  let closed = false;

  const pairOf = (keyId: string, dim: DimensionRef, now: number): StorePair => {
    let byKey = pairs.get(dim.key);
    if (!byKey) {
      byKey = new Map();
      pairs.set(dim.key, byKey);
    }
    let pair = byKey.get(keyId);
    if (!pair) {
      const index = bucketIndexOf(now, dim.windowMs);
      pair = { keyId, index, prev: 0, curr: 0, prevAt: 0, currAt: 0, touchedAt: now, prevRow: null, currRow: null };
      for (const row of selectPair.all(keyId, dim.key, index, index - 1)) {
        if (row.bucket_index === index) {
          pair.curr = row.consumed;
          pair.currAt = row.updated_at;
        } else {
          pair.prev = row.consumed;
          pair.prevAt = row.updated_at;
        }
      }
      byKey.set(keyId, pair);
    }
    pair.touchedAt = Math.max(pair.touchedAt, now);
    return pair;
  };

  const flush = (): number => {
    if (pending.size === 0) return 0;
    const rows = [...pending];
    writeAll(rows);
    // Only after the commit: a throw above leaves every row pending for the next attempt. Nothing
    // can write a row between the two lines (the transaction is synchronous).
    pending.clear();
    return rows.length;
  };

  const timer = setInterval(() => {
    // The core closes the database after the store; until close() comes there is nothing to do.
    if (!db.open) return;
    try {
      flush();
    } catch (error) {
      // A disk that refuses writes is reported once, as degraded storage (issue 21 §16); the rows wait either way.
      if (!reportStorageFault(db, error))
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
    const shift = index - pair.index;
    // The rows move with their buckets; a row rolled out of the pair stays pending all the same.
    if (shift === 1) pair.prevRow = pair.currRow;
    if (shift >= 1) pair.currRow = null;
    if (shift >= 2) pair.prevRow = null;
    rollTo(pair, index);
    const at = Math.floor(now);
    let value: number;
    let updatedAt: number;
    if (index === pair.index) {
      pair.curr += amount;
      pair.currAt = Math.max(pair.currAt, at);
      value = pair.curr;
      updatedAt = pair.currAt;
    } else if (index === pair.index - 1) {
      // A late record for the previous bucket (its request started before the boundary).
      pair.prev += amount;
      pair.prevAt = Math.max(pair.prevAt, at);
      value = pair.prev;
      updatedAt = pair.prevAt;
    } else {
      // Two or more buckets back: it no longer counts in any window this pair can be read in.
      return effectiveAt(pair, now, dim.windowMs);
    }
    const isCurr = index === pair.index;
    let row = isCurr ? pair.currRow : pair.prevRow;
    if (row !== null && row.index === index) {
      row.consumed = value;
      row.updatedAt = updatedAt;
    } else {
      row = { keyId, dimKey: dim.key, index, consumed: value, updatedAt };
      if (isCurr) pair.currRow = row;
      else pair.prevRow = row;
    }
    pending.add(row);
    return effectiveAt(pair, now, dim.windowMs);
  };

  const readManyInto = (
    keyIds: readonly string[],
    dims: readonly DimensionRef[],
    now: number,
    out: BucketPairs,
  ): BucketPairs => {
    ensureOpen();
    const dimCount = dims.length;
    for (let d = 0; d < dimCount; d++) {
      const dim = dims[d];
      if (dim === undefined) continue;
      const index = bucketIndexOf(now, dim.windowMs);
      for (let k = 0; k < keyIds.length; k++) {
        const keyId = keyIds[k];
        if (keyId === undefined) continue;
        const pair = pairOf(keyId, dim, now);
        out.prev[k * dimCount + d] = viewPrev(pair, index);
        out.curr[k * dimCount + d] = viewCurr(pair, index);
      }
    }
    return out;
  };

  const syncOps: QuotaStoreNow = {
    readManyInto,
    consume(keyId, dim, amount, now) {
      // QWIN-4: a counter whose mutex holds queued async consumes waits its turn behind them.
      if (mutex.size() > 0 && mutex.busy(`${keyId}|${dim.key}`)) return null;
      return consumeNow(keyId, dim, amount, now);
    },
  };

  return {
    driver: 'sqlite',
    sync: () => syncOps,
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
        const size = keyIds.length * dims.length;
        return readManyInto(keyIds, dims, now, { prev: new Float64Array(size), curr: new Float64Array(size) });
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
        for (const byKey of pairs.values()) for (const id of byKey.keys()) if (mine(id)) byKey.delete(id);
        for (const row of pending) if (mine(row.keyId)) pending.delete(row);
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
