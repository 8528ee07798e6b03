import { afterEach, describe, expect, it } from 'vitest';
import type { NewRequestLogEntry } from '../../src-shared/domain/request-log';
import { createMemoryDb, createTempDb } from '../testing/temp-db';
import { openDatabase } from './open';
import { createRequestLog } from './request-log-repo';

const DAY = 86_400_000;
const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

function setup(flushEvery?: number) {
  const db = createMemoryDb();
  closers.push(() => db.close());
  const rows = () => db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM request_log').get()?.n ?? 0;
  return { db, log: createRequestLog(db, flushEvery === undefined ? {} : { flushEvery }), rows };
}

function reservedThrough(db: ReturnType<typeof createMemoryDb>): number {
  return db.prepare<[], { r: number }>('SELECT reserved_through AS r FROM request_log_seq').get()?.r ?? 0;
}

function entry(over: Partial<NewRequestLogEntry> = {}): NewRequestLogEntry {
  return {
    ts: 1_000,
    keyName: 'laptop',
    apiFormat: 'anthropic',
    endpoint: '/v1/messages',
    model: 'claude-sonnet-4-5',
    connection: 'work',
    status: 200,
    stream: true,
    latencyMs: 1234,
    ttfbMs: 321,
    inputTokens: 10,
    outputTokens: 20,
    cacheReadTokens: null,
    cacheWriteTokens: 0,
    failover: [],
    errorCode: null,
    servedVia: null,
    sessionPin: null,
    ...over,
  };
}

describe('request log', () => {
  it('PROD-16: a full batch (one statement of many rows) and the rows after it read back exactly as appended', () => {
    const { log, rows } = setup(4);
    const appended = Array.from({ length: 10 }, (_, i) =>
      log.append(
        entry({
          ts: 1_000 + i,
          model: `m${i}`,
          status: i % 3 === 0 ? 429 : 200,
          inputTokens: i % 2 === 0 ? null : i,
          failover: i === 5 ? [{ connection: 'home', status: 429, reason: 'rate_limited' }] : [],
          errorMessage: i === 7 ? 'why "quoted"' : null,
        }),
      ),
    );
    // Two full batches of 4 were written as they filled; two rows wait for the next flush.
    expect(rows()).toBe(8);
    expect(log.list({ limit: 20 }).reverse()).toEqual(appended);
    expect(rows()).toBe(10);
  });

  it('ISSUE-24 §1: decision records written in whole batches and singly read back exactly; a row without one has the record it implies', () => {
    const { db, log } = setup(200);
    const ids: number[] = [];
    const failed = { connection: 'x', status: 503, reason: 'upstream_error', ms: 12, upstreamModel: 'mx' };
    const attempts = [failed, { connection: 'work', status: 200, reason: 'served', ms: 30, upstreamModel: 'mw' }];
    // 150 rows, every one but each tenth with a record: two full batches of 64 and a remainder.
    for (let i = 0; i < 150; i++) {
      const decision =
        i % 10 === 9
          ? undefined
          : {
              served: `c${i}`,
              status: 200,
              heldMs: i,
              queuedMs: 0,
              entries: [
                { kind: 'attempted' as const, connection: `c${i}`, model: 'm', status: 200, reason: 'served', ms: i },
              ],
              omitted: 0,
            };
      ids.push(log.append(entry(decision === undefined ? { attempts, failover: [failed] } : { decision })).id);
    }
    log.flush();
    const stored = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM request_decisions').get()?.n;
    expect(stored).toBe(135);
    for (const [i, id] of ids.entries()) {
      const read = log.decision(id);
      if (i % 10 !== 9) expect(read).toEqual({ id, decision: expect.objectContaining({ served: `c${i}`, heldMs: i }) });
      else
        expect(read).toEqual({
          id,
          decision: {
            served: 'work',
            status: 200,
            heldMs: 0,
            queuedMs: 0,
            omitted: 0,
            entries: [
              { kind: 'attempted', connection: 'x', model: 'mx', status: 503, reason: 'upstream_error', ms: 12 },
              { kind: 'attempted', connection: 'work', model: 'mw', status: 200, reason: 'served', ms: 30 },
            ],
          },
        });
    }
    // `last` is the newest request's, stored or implied; an id no row has has none.
    expect(log.decision('last')?.id).toBe(ids.at(-1));
    expect(log.decision(99_999)).toBeNull();
  });

  it('PROD-16: append returns the entry with an id at once and writes nothing until the batch fills', () => {
    const { log, rows } = setup(3);
    const first = log.append(entry({ failover: [{ connection: 'home', status: 429, reason: 'rate_limited' }] }));
    expect(first).toMatchObject({
      id: 1,
      connection: 'work',
      failover: [{ connection: 'home', status: 429, reason: 'rate_limited' }],
    });
    log.append(entry());
    expect(rows()).toBe(0);
    log.append(entry());
    expect(rows()).toBe(3);
    expect(log.list()[2]).toEqual(first);
  });

  it('PROD-16: rounds fractional timings so STRICT INTEGER columns accept them, identically in append and list', () => {
    const { log } = setup();
    const appended = log.append(entry({ latencyMs: 12.6, ttfbMs: 3.2 }));
    expect(appended).toMatchObject({ latencyMs: 13, ttfbMs: 3 });
    expect(log.list()).toEqual([appended]);
  });

  it('CONC-7: the held time is stored rounded in held_ms and read back; a request never held reads null', () => {
    const { db, log } = setup();
    const held = log.append(entry({ heldMs: 2_049.6 }));
    const plain = log.append(entry());
    expect(held.heldMs).toBe(2_050);
    expect(log.list()).toEqual([plain, held]);
    expect(plain.heldMs).toBeNull();
    const stored = db.prepare<[], { held_ms: number | null }>('SELECT held_ms FROM request_log ORDER BY id').all();
    expect(stored.map((r) => r.held_ms)).toEqual([2_050, null]);
  });

  it('ISSUE-12: the translation direction is stored in translated and read back; a same-format request reads null', () => {
    const { db, log } = setup();
    const bridged = log.append(entry({ translated: 'responses->anthropic' }));
    const plain = log.append(entry());
    expect(bridged.translated).toBe('responses->anthropic');
    expect(plain.translated).toBeNull();
    expect(log.list()).toEqual([plain, bridged]);
    const stored = db
      .prepare<[], { translated: string | null }>('SELECT translated FROM request_log ORDER BY id')
      .all();
    expect(stored.map((r) => r.translated)).toEqual(['responses->anthropic', null]);
  });

  it('PROD-16: 10,000 appends and a flush store every row with contiguous ids', () => {
    const { db, log, rows } = setup();
    const ids = Array.from({ length: 10_000 }, (_, i) => log.append(entry({ ts: i })).id);
    log.flush();
    expect(rows()).toBe(10_000);
    expect(ids).toEqual(Array.from({ length: 10_000 }, (_, i) => i + 1));
    expect(db.prepare('SELECT MIN(id) AS lo, MAX(id) AS hi FROM request_log').get()).toEqual({ lo: 1, hi: 10_000 });
  });

  it('PROD-16: a new log on an existing database continues after every id the previous one could have handed out', () => {
    const { db, log } = setup();
    log.append(entry());
    log.append(entry());
    log.flush();
    const next = createRequestLog(db).append(entry()).id;
    expect(next).toBeGreaterThan(2);
    expect(reservedThrough(db)).toBeGreaterThanOrEqual(next);
  });

  it('PROD-16: ids handed out but lost unflushed (kill -9) are never handed out again after reopening the file', () => {
    const temp = createTempDb();
    closers.push(() => temp.close());
    const log = createRequestLog(temp.db);
    const written = [log.append(entry()).id, log.append(entry()).id];
    log.flush();
    // Given to the dashboard, then the process dies before the timer flushes them.
    const lost = [log.append(entry()).id, log.append(entry()).id];
    temp.db.close();

    const reopened = openDatabase(temp.file);
    closers.push(() => reopened.close());
    const after = createRequestLog(reopened);
    const fresh = [after.append(entry()).id, after.append(entry()).id];
    after.flush();
    expect(Math.min(...fresh)).toBeGreaterThan(Math.max(...written, ...lost));
    expect(after.list().map((e) => e.id)).toEqual([fresh[1], fresh[0], written[1], written[0]]);
  });

  it('PROD-16: pruning every row does not lower the next id, in the same log or a new one', () => {
    const { db, log, rows } = setup();
    const ids = Array.from({ length: 10 }, () => log.append(entry({ ts: 1 })).id);
    expect(log.prune(100 * DAY, 0, 35)).toBe(10);
    expect(rows()).toBe(0);
    expect(log.append(entry()).id).toBe(11);
    expect(createRequestLog(db).append(entry()).id).toBeGreaterThan(Math.max(...ids, 11));
  });

  it('PROD-16: the reservation on disk covers every id before it is handed out, refilled in blocks', () => {
    const db = createMemoryDb();
    closers.push(() => db.close());
    const small = createRequestLog(db, { flushEvery: 1_000, idBlock: 4 });
    const ids: number[] = [];
    for (let i = 0; i < 25; i++) {
      const id = small.append(entry()).id;
      ids.push(id);
      expect(reservedThrough(db)).toBeGreaterThanOrEqual(id);
    }
    expect(ids).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });

  it('PROD-16: a database without a reservation row (older schema state) continues after MAX(id)', () => {
    const { db, log } = setup();
    log.append(entry());
    log.append(entry());
    log.flush();
    db.exec('DELETE FROM request_log_seq');
    expect(createRequestLog(db).append(entry()).id).toBeGreaterThan(2);
    expect(reservedThrough(db)).toBeGreaterThan(2);
  });

  it('PROD-16: a failed flush keeps the buffered rows for the next one', () => {
    const { db, log, rows } = setup();
    log.append(entry({ ts: 1 }));
    log.append(entry({ ts: 2 }));
    db.exec('ALTER TABLE request_log RENAME TO request_log_away');
    expect(() => log.flush()).toThrow();
    db.exec('ALTER TABLE request_log_away RENAME TO request_log');
    log.append(entry({ ts: 3 }));
    log.flush();
    expect(rows()).toBe(3);
    expect(log.list().map((e) => [e.id, e.ts])).toEqual([
      [3, 3],
      [2, 2],
      [1, 1],
    ]);
  });

  it('PROD-16: lists newest first with default and maximum limits and beforeId paging', () => {
    const { log } = setup();
    for (let i = 0; i < 1_200; i++) log.append(entry({ ts: i }));
    expect(
      log
        .list()
        .map((e) => e.id)
        .slice(0, 3),
    ).toEqual([1_200, 1_199, 1_198]);
    expect(log.list()).toHaveLength(100);
    expect(log.list({ limit: 5_000 })).toHaveLength(1_000);
    expect(log.list({ limit: 3, beforeId: 10 }).map((e) => e.id)).toEqual([9, 8, 7]);
  });

  it('PROD-16: filters by connection, model and ok/error status', () => {
    const { log } = setup();
    log.append(entry({ connection: 'work', model: 'a', status: 200 }));
    log.append(entry({ connection: 'home', model: 'a', status: 429 }));
    log.append(entry({ connection: 'work', model: 'b', status: 500 }));
    log.append(entry({ connection: 'home', model: 'b', status: 399 }));
    const ids = (q: Parameters<typeof log.list>[0]) => log.list(q).map((e) => e.id);
    expect(ids({ connection: 'work' })).toEqual([3, 1]);
    expect(ids({ model: 'b' })).toEqual([4, 3]);
    expect(ids({ status: 'ok' })).toEqual([4, 1]);
    expect(ids({ status: 'error' })).toEqual([3, 2]);
    expect(ids({ connection: 'home', status: 'error' })).toEqual([2]);
  });

  it('PROD-16: summarySince counts requests and errors at or after a time, including unflushed ones', () => {
    const { log } = setup();
    expect(log.summarySince(0)).toEqual({ requests: 0, errors: 0 });
    log.append(entry({ ts: 100, status: 500 }));
    log.append(entry({ ts: 200, status: 200 }));
    log.append(entry({ ts: 300, status: 429 }));
    expect(log.summarySince(200)).toEqual({ requests: 2, errors: 1 });
  });

  it('PROD-16: prune deletes rows past the age limit and beyond the newest maxRows', () => {
    const { log } = setup();
    const now = 100 * DAY;
    for (let i = 0; i < 10; i++) log.append(entry({ ts: now - (40 - i) * DAY })); // ids 1-10: 40..31 days old
    for (let i = 0; i < 20; i++) log.append(entry({ ts: now - i })); // ids 11-30: fresh
    expect(log.prune(now, 1_000, 35)).toBe(5); // ids 1-5 are older than 35 days; id 6 is exactly 35
    expect(log.list({ limit: 1_000 }).at(-1)?.id).toBe(6);
    expect(log.prune(now, 15, 35)).toBe(10); // keep the newest 15: ids 16-30
    expect(log.list({ limit: 1_000 }).map((e) => e.id)).toEqual(Array.from({ length: 15 }, (_, i) => 30 - i));
    expect(log.prune(now, 15, 35)).toBe(0);
  });
});
