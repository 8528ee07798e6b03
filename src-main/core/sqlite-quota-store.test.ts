import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/open';
import { createTempDb, type TempDb } from '../testing/temp-db';
import type { DimensionRef } from '../quota/quota-ports';
import { createSqliteQuotaStore } from './sqlite-quota-store';
import type { LocalQuotaStore as SqliteQuotaStore } from '../quota/quota-ports';

const HOUR = 3_600_000;
const DIM: DimensionRef = { key: 'pool-1:requests:hourly', windowMs: HOUR };
const OTHER_DIM: DimensionRef = { key: 'pool-1:tokens:hourly', windowMs: HOUR };
/** The start of some hour bucket, so tests can place `now` at a known fraction of the window. */
const T0 = 500_000 * HOUR;

const rowCount = (t: TempDb): number =>
  (t.db.prepare('SELECT COUNT(*) AS n FROM quota_consumption').get() as { n: number }).n;

describe('sqlite quota store', () => {
  let temp: TempDb;
  let store: SqliteQuotaStore;

  beforeEach(() => {
    temp = createTempDb();
    store = createSqliteQuotaStore(temp.db, { flushIntervalMs: 60_000 });
  });
  afterEach(async () => {
    await store.close();
    temp.close();
  });

  it('QWIN-3: consume 100 then peek gives 100', async () => {
    await expect(store.consume('alice', DIM, 100, T0 + 10)).resolves.toBeCloseTo(100, 9);
    await expect(store.peek('alice', DIM, T0 + 20)).resolves.toBeCloseTo(100, 9);
  });

  it('QWIN-3: a fresh key reads 0', async () => {
    await expect(store.peek('nobody', DIM, T0)).resolves.toBe(0);
  });

  it('QWIN-1: two consumes in one bucket sum', async () => {
    await store.consume('alice', DIM, 30, T0 + 1);
    await expect(store.consume('alice', DIM, 12.5, T0 + 2)).resolves.toBeCloseTo(42.5, 9);
  });

  it('QWIN-2: the previous bucket of 1 000 decays by the elapsed fraction of the window', async () => {
    await store.consume('alice', DIM, 1_000, T0 + HOUR / 2);
    // A quarter into the next bucket: 1 000 × 0.75.
    const quarter = await store.peek('alice', DIM, T0 + HOUR + HOUR / 4);
    expect(Math.abs(quarter - 750) / 750).toBeLessThan(0.01);
    const pairs = await store.readMany(['alice'], [DIM], T0 + HOUR + HOUR / 4);
    expect([pairs.prev[0], pairs.curr[0]]).toEqual([1_000, 0]);
    // Two windows on, nothing is left.
    await expect(store.peek('alice', DIM, T0 + 2 * HOUR + 1)).resolves.toBe(0);
  });

  it('QWIN-2: consuming after the boundary rolls curr into prev and keeps counting', async () => {
    await store.consume('alice', DIM, 200, T0 + 5);
    const v = await store.consume('alice', DIM, 10, T0 + HOUR + HOUR / 2);
    expect(v).toBeCloseTo(200 * 0.5 + 10, 6);
    await store.consume('alice', DIM, 7, T0 + 3 * HOUR + 1);
    const pairs = await store.readMany(['alice'], [DIM], T0 + 3 * HOUR + 2);
    expect([pairs.prev[0], pairs.curr[0]]).toEqual([0, 7]);
  });

  it('QWIN-4: 50 concurrent consumes of 10 add up to exactly 500', async () => {
    await Promise.all(Array.from({ length: 50 }, (_, i) => store.consume('alice', DIM, 10, T0 + i)));
    await expect(store.peek('alice', DIM, T0 + 100)).resolves.toBe(500);
    store.flush();
    const row = temp.db.prepare('SELECT consumed FROM quota_consumption WHERE api_key_id = ?').get('alice');
    expect(row).toEqual({ consumed: 500 });
  });

  it('QWIN-1: keys and dimensions are isolated', async () => {
    await store.consume('alice', DIM, 5, T0);
    await store.consume('bob', DIM, 7, T0);
    await store.consume('alice', OTHER_DIM, 900, T0);
    const pairs = await store.readMany(['alice', 'bob', 'carol'], [DIM, OTHER_DIM], T0 + 1);
    expect([...pairs.curr]).toEqual([5, 900, 7, 0, 0, 0]);
  });

  it('QWIN-3: clear(key) zeroes one key in memory and in the table; clear() zeroes all', async () => {
    await store.consume('alice', DIM, 5, T0);
    await store.consume('bob', DIM, 7, T0);
    store.flush();
    await store.clear('alice');
    await expect(store.peek('alice', DIM, T0 + 1)).resolves.toBe(0);
    await expect(store.peek('bob', DIM, T0 + 1)).resolves.toBe(7);
    expect(rowCount(temp)).toBe(1);
    await store.clear();
    await expect(store.peek('bob', DIM, T0 + 1)).resolves.toBe(0);
    expect(rowCount(temp)).toBe(0);
  });

  it('QENV-3: gc removes rows last written before the retention cut-off and keeps recent ones', async () => {
    const day = 24 * HOUR;
    await store.consume('old', DIM, 3, T0);
    await store.consume('recent', DIM, 4, T0 + 13 * day);
    const removed = await store.gc(14 * day, T0 + 15 * day);
    expect(removed).toBe(1);
    const keys = temp.db.prepare('SELECT api_key_id FROM quota_consumption').all();
    expect(keys).toEqual([{ api_key_id: 'recent' }]);
  });

  it('QENV-3: gc keeps a bucket past the retention while its window still counts it, then drops it from table and memory', async () => {
    const day = 24 * HOUR;
    const monthly: DimensionRef = { key: 'pool-1:requests:monthly', windowMs: 30 * day };
    const start = 1_000 * 30 * day;
    await store.consume('alice', monthly, 9, start);
    await store.consume('alice', monthly, 1, start + 3 * day);
    // Written 17 days before, older than a 14-day retention, yet in the current monthly bucket.
    await expect(store.gc(14 * day, start + 20 * day)).resolves.toBe(0);
    await expect(store.peek('alice', monthly, start + 20 * day)).resolves.toBe(10);
    // Two windows on, the bucket counts nowhere: removed, and memory agrees.
    await expect(store.gc(14 * day, start + 61 * day)).resolves.toBe(1);
    await expect(store.peek('alice', monthly, start + 61 * day)).resolves.toBe(0);
    expect(rowCount(temp)).toBe(0);
  });

  it('QWIN-4, QDB-3: consume never writes SQLite synchronously; flush writes all rows of quota_consumption in one go', async () => {
    await store.consume('alice', DIM, 1, T0);
    await store.consume('bob', DIM, 2, T0);
    await store.consume('bob', OTHER_DIM, 3, T0);
    expect(rowCount(temp)).toBe(0);
    expect(store.flush()).toBe(3);
    expect(rowCount(temp)).toBe(3);
    expect(store.flush()).toBe(0);
  });

  it('QDRV-1: after flush and close, reopening the database gives the same values', async () => {
    await store.consume('alice', DIM, 600, T0 + HOUR / 2);
    await store.consume('alice', DIM, 40, T0 + HOUR + 1);
    await store.close();
    temp.db.close();
    const reopened = openDatabase(temp.file);
    try {
      const again = createSqliteQuotaStore(reopened);
      const pairs = await again.readMany(['alice'], [DIM], T0 + HOUR + HOUR / 2);
      expect([pairs.prev[0], pairs.curr[0]]).toEqual([600, 40]);
      await expect(again.peek('alice', DIM, T0 + HOUR + HOUR / 2)).resolves.toBeCloseTo(340, 6);
      await again.close();
    } finally {
      reopened.close();
    }
  });

  it('QDRV-1: after close, operations reject instead of counting into a dead store', async () => {
    await store.close();
    await expect(store.consume('alice', DIM, 1, T0)).rejects.toThrow(/closed/);
  });

  describe('synchronous form (the request path)', () => {
    const rowsOf = (t: TempDb) =>
      t.db
        .prepare('SELECT api_key_id, bucket_index, consumed FROM quota_consumption ORDER BY api_key_id, bucket_index')
        .all();

    it('QWIN-3: readManyInto answers what readMany answers, into the given arrays', async () => {
      await store.consume('alice', DIM, 5, T0 + 1);
      await store.consume('bob', OTHER_DIM, 3, T0 + HOUR + 1);
      const at = T0 + HOUR + 10;
      const out = { prev: new Float64Array(4), curr: new Float64Array(4) };
      const got = store.sync().readManyInto(['alice', 'bob'], [DIM, OTHER_DIM], at, out);
      expect(got).toBe(out);
      const want = await store.readMany(['alice', 'bob'], [DIM, OTHER_DIM], at);
      expect([...got.prev]).toEqual([...want.prev]);
      expect([...got.curr]).toEqual([...want.curr]);
      expect([...got.prev]).toEqual([5, 0, 0, 0]);
      expect([...got.curr]).toEqual([0, 0, 0, 3]);
    });

    it('QWIN-4: consume runs at once while its counter is free and waits behind a queued async consume', async () => {
      expect(store.sync().consume('alice', DIM, 2, T0 + 1)).toBe(2);
      const queued = store.consume('alice', DIM, 3, T0 + 2);
      // The async consume holds alice's mutex: the synchronous form declines rather than overtake it.
      expect(store.sync().consume('alice', DIM, 1, T0 + 3)).toBeNull();
      // Another counter is not held.
      expect(store.sync().consume('bob', DIM, 1, T0 + 3)).toBe(1);
      await expect(queued).resolves.toBe(5);
      await new Promise((resolve) => setImmediate(resolve));
      expect(store.sync().consume('alice', DIM, 1, T0 + 4)).toBe(6);
    });

    it('QDB-3: a row written again before the flush is written once with its latest value; rolled rows still are', async () => {
      const sync = store.sync();
      sync.consume('alice', DIM, 1, T0 + 1);
      sync.consume('alice', DIM, 2, T0 + 2);
      expect(store.flush()).toBe(1);
      sync.consume('alice', DIM, 4, T0 + 3);
      // Into the next bucket, then one more two buckets on: every touched row stays pending.
      sync.consume('alice', DIM, 10, T0 + HOUR + 1);
      sync.consume('alice', DIM, 20, T0 + 3 * HOUR + 1);
      expect(store.flush()).toBe(3);
      expect(rowsOf(temp)).toEqual([
        { api_key_id: 'alice', bucket_index: 500_000, consumed: 7 },
        { api_key_id: 'alice', bucket_index: 500_001, consumed: 10 },
        { api_key_id: 'alice', bucket_index: 500_003, consumed: 20 },
      ]);
      expect(store.flush()).toBe(0);
    });

    it('QWIN-1: a late record for the previous bucket updates that row, not the current one', async () => {
      const sync = store.sync();
      sync.consume('alice', DIM, 1, T0 + 1);
      sync.consume('alice', DIM, 2, T0 + HOUR + 1);
      // Seen from its own (older) bucket: that bucket is 1 + 4; the one before it is not kept.
      expect(sync.consume('alice', DIM, 4, T0 + HOUR - 1)).toBe(5);
      store.flush();
      expect(rowsOf(temp)).toEqual([
        { api_key_id: 'alice', bucket_index: 500_000, consumed: 5 },
        { api_key_id: 'alice', bucket_index: 500_001, consumed: 2 },
      ]);
    });

    it("QWIN-3: clear(key) drops that key's pending rows too; after close the synchronous form throws", async () => {
      store.sync().consume('alice', DIM, 1, T0 + 1);
      store.sync().consume('bob', DIM, 1, T0 + 1);
      await store.clear('alice');
      expect(store.flush()).toBe(1);
      expect(rowsOf(temp)).toEqual([{ api_key_id: 'bob', bucket_index: 500_000, consumed: 1 }]);
      await store.close();
      expect(() => store.sync().consume('alice', DIM, 1, T0)).toThrow(/closed/);
    });
  });
});
