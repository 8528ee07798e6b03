import { bucketIndexOf } from '../engine/sliding-window';
import type {
  BucketPairs,
  DimensionRef,
  LocalQuotaStore,
  QuotaBucketRows,
  QuotaStoreNow,
  StoredBucket,
} from '../quota-ports';
import { effectiveAt, rollTo, viewCurr, viewPrev, type BucketPair } from './bucket-pair';
import { createKeyedMutex } from './keyed-mutex';

/**
 * The default quota counter store (QDRV-1) over the `quota_consumption` rows, written behind so the request
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
export interface LocalQuotaStoreOptions {
  /** How often pending rows are written; default 1 000 ms. */
  flushIntervalMs?: number;
  /** Where a failed background flush is reported (the rows stay pending). */
  log?: (line: string) => void;
}

type PendingRow = StoredBucket;

/** A pair in memory with the pending writes of its two rows (see `consumeNow`). */
interface StorePair extends BucketPair {
  keyId: string;
  prevRow: PendingRow | null;
  currRow: PendingRow | null;
}

const DEFAULT_FLUSH_INTERVAL_MS = 1_000;

/** The local counters over their stored rows (the caller keeps owning what is behind `rows`). */
export function createLocalQuotaStore(rows: QuotaBucketRows, opts: LocalQuotaStoreOptions = {}): LocalQuotaStore {
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
      for (const row of rows.pair(keyId, dim.key, index)) {
        if (row.index === index) {
          pair.curr = row.consumed;
          pair.currAt = row.updatedAt;
        } else {
          pair.prev = row.consumed;
          pair.prevAt = row.updatedAt;
        }
      }
      byKey.set(keyId, pair);
    }
    pair.touchedAt = Math.max(pair.touchedAt, now);
    return pair;
  };

  const flush = (): number => {
    if (pending.size === 0) return 0;
    const batch = [...pending];
    rows.writeAll(batch);
    // Only after the commit: a throw above leaves every row pending for the next attempt. Nothing
    // can write a row between the two lines (the transaction is synchronous).
    pending.clear();
    return batch.length;
  };

  const timer = setInterval(() => {
    // The core closes the database after the store; until close() comes there is nothing to do.
    if (!rows.isOpen()) return;
    try {
      flush();
    } catch (error) {
      // A disk that refuses writes is reported once, as degraded storage (issue 21 §16); the rows wait either way.
      if (!rows.reportFault(error))
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

  /** Sets one pair to values another store holds (Redis), as if consumed here; written behind like a consume. */
  const mirror = (keyId: string, dim: DimensionRef, now: number, prev: number, curr: number): void => {
    ensureOpen();
    const index = bucketIndexOf(now, dim.windowMs);
    const pair = pairOf(keyId, dim, now);
    if (index < pair.index || (index === pair.index && pair.prev === prev && pair.curr === curr)) return;
    consumeNow(keyId, dim, 0, now);
    const at = Math.floor(now);
    pair.prev = prev;
    pair.curr = curr;
    pair.currAt = Math.max(pair.currAt, at);
    pair.currRow = { keyId, dimKey: dim.key, index, consumed: curr, updatedAt: pair.currAt };
    pending.add(pair.currRow);
    if (pair.prevRow !== null && pair.prevRow.index === index - 1) pair.prevRow.consumed = prev;
    else if (prev > 0) {
      pair.prevRow = { keyId, dimKey: dim.key, index: index - 1, consumed: prev, updatedAt: pair.prevAt || at };
      pending.add(pair.prevRow);
    }
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
        const removed = rows.deleteOlder(Math.floor(cutoff), Math.floor(now));
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
        if (keyId === undefined) rows.deleteAll();
        else rows.deleteKey(keyId);
      });
    },
    mirror,
    flush: () => {
      ensureOpen();
      return flush();
    },
    close() {
      return Promise.resolve().then(() => {
        if (closed) return;
        clearInterval(timer);
        closed = true;
        if (rows.isOpen()) flush();
      });
    },
  };
}
