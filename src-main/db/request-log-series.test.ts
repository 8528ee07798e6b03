import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryDb } from '../testing/temp-db';
import type { Database } from './open';
import { createRequestLogSeries, GROUPS_SQL, SERIES_MAX_ROWS } from './request-log-series';

const MIN = 60_000;
const HOUR = 60 * MIN;
/** A minute boundary, so bucket arithmetic in the expectations stays readable. */
const NOW = 1_700_000_000_000 - (1_700_000_000_000 % HOUR) + 30 * MIN + 10_000;
const CURRENT_MINUTE = NOW - (NOW % MIN);

const dbs: Database[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

interface Row {
  ts: number;
  connection?: string | null;
  key?: string | null;
  status?: number;
  latency?: number;
  input?: number | null;
  output?: number | null;
  failover?: boolean;
}

/** Raw rows, as the request log writes them (only the columns the series reads matter). */
function seed(rows: Row[]): Database {
  const db = createMemoryDb();
  dbs.push(db);
  const insert = db.prepare(`
    INSERT INTO request_log (ts, key_name, endpoint, connection, status, stream, latency_ms, input_tokens, output_tokens, failover_json)
    VALUES (@ts, @key, '/v1/messages', @connection, @status, 0, @latency, @input, @output, @failover)`);
  for (const r of rows) {
    insert.run({
      ts: r.ts,
      key: r.key === undefined ? 'laptop' : r.key,
      connection: r.connection === undefined ? 'max-1' : r.connection,
      status: r.status ?? 200,
      latency: r.latency ?? 100,
      input: r.input === undefined ? 10 : r.input,
      output: r.output === undefined ? 20 : r.output,
      failover: r.failover === true ? '[{"connection":"max-2","status":429,"reason":"rate_limited"}]' : '[]',
    });
  }
  return db;
}

describe('request-log series (issue 13 §4)', () => {
  it('buckets the last hour by minute: counts, tokens, errors and failovers land in the bucket of their ts', () => {
    const db = seed([
      { ts: NOW - 500 },
      { ts: CURRENT_MINUTE, status: 429, failover: true, input: null },
      { ts: NOW - 10 * MIN, connection: 'glm', key: 'ci', output: 5 },
      // Outside the hour: an hour and a minute back.
      { ts: NOW - 61 * MIN },
    ]);
    const s = createRequestLogSeries(db).series('hour', NOW);
    expect(s.buckets).toHaveLength(60);
    expect(s.to).toBe(CURRENT_MINUTE + MIN);
    expect(s.from).toBe(CURRENT_MINUTE - 59 * MIN);
    expect(s.buckets[59]).toBe(CURRENT_MINUTE);
    expect(s.totals.requests[59]).toBe(2);
    expect(s.totals.errors[59]).toBe(1);
    expect(s.totals.failovers[59]).toBe(1);
    expect(s.totals.inputTokens[59]).toBe(10);
    expect(s.totals.outputTokens[59]).toBe(40);
    expect(s.totals.requests[49]).toBe(1);
    expect(s.totals.requests.reduce((a, b) => a + b, 0)).toBe(3);
    expect(s.summary).toMatchObject({
      requests: 3,
      errors: 1,
      failovers: 1,
      tokens: 20 + 30 + 15,
      errorRate: 1 / 3,
      failoverRate: 1 / 3,
    });
    expect(s.scan).toEqual({ rows: 3, maxRows: 50_000, truncated: false, coveredFrom: s.from });
  });

  it('splits requests and tokens by connection and by key, busiest first, refusals under a null name', () => {
    const db = seed([
      { ts: NOW, connection: 'max-1', key: 'alice' },
      { ts: NOW, connection: 'max-1', key: 'bob' },
      { ts: NOW - 30 * MIN, connection: 'glm', key: 'alice', input: 100, output: 1 },
      { ts: NOW, connection: null, key: null, status: 401 },
    ]);
    const s = createRequestLogSeries(db).series('hour', NOW);
    expect(s.byConnection.map((g) => [g.name, g.total.requests, g.total.tokens])).toEqual([
      ['max-1', 2, 60],
      ['glm', 1, 101],
      [null, 1, 30],
    ]);
    const glm = s.byConnection.find((g) => g.name === 'glm');
    expect(glm?.requests[29]).toBe(1);
    expect(glm?.tokens[29]).toBe(101);
    expect(s.byKey.map((g) => [g.name, g.total.requests, g.total.errors])).toEqual([
      ['alice', 2, 0],
      ['bob', 1, 0],
      [null, 1, 1],
    ]);
  });

  it('sums the groups past the top few into one "other" group', () => {
    const db = seed(['a', 'b', 'c', 'c', 'd'].map((c) => ({ ts: NOW, connection: c })));
    const s = createRequestLogSeries(db, { topGroups: 2 }).series('hour', NOW);
    expect(s.byConnection.map((g) => [g.name, g.other, g.total.requests])).toEqual([
      ['c', false, 2],
      ['a', false, 1],
      [null, true, 2],
    ]);
    expect(s.byConnection[2]?.requests[59]).toBe(2);
  });

  it('the day buckets by quarter hour and the week by hour', () => {
    const db = seed([{ ts: NOW }, { ts: NOW - 20 * HOUR }, { ts: NOW - 6 * 24 * HOUR }]);
    const series = createRequestLogSeries(db);
    const day = series.series('day', NOW);
    expect(day.bucketMs).toBe(15 * MIN);
    expect(day.buckets).toHaveLength(96);
    expect(day.summary.requests).toBe(2);
    expect(day.totals.requests[95 - 80]).toBe(1);
    const week = series.series('week', NOW);
    expect(week.bucketMs).toBe(HOUR);
    expect(week.buckets).toHaveLength(168);
    expect(week.summary.requests).toBe(3);
    expect(week.totals.requests[167 - 144]).toBe(1);
  });

  it('p50/p95 per bucket and for the range come from SQLite percentile(), over requests that reached an upstream', () => {
    const db = seed([
      ...[10, 20, 30, 40, 50].map((latency) => ({ ts: NOW, latency })),
      // Leeway's own refusal: no connection, never counted in latency.
      { ts: NOW, connection: null, latency: 100_000, status: 401 },
      { ts: NOW - 5 * MIN, latency: 1_000 },
    ]);
    const s = createRequestLogSeries(db).series('hour', NOW);
    expect(s.totals.p50Ms[59]).toBe(30);
    expect(s.totals.p95Ms[59]).toBe(48);
    expect(s.totals.p50Ms[54]).toBe(1_000);
    expect(s.totals.p50Ms[0]).toBeNull();
    expect(s.summary.p50Ms).toBe(35);
    expect(s.summary.p95Ms).toBe(763);
  });

  it('without percentile() the portable fallback gives nearest-rank percentiles', () => {
    const db = seed([10, 20, 30, 40, 50].map((latency) => ({ ts: NOW, latency })));
    const s = createRequestLogSeries(db, { portablePercentiles: true }).series('hour', NOW);
    expect(s.totals.p50Ms[59]).toBe(30);
    expect(s.totals.p95Ms[59]).toBe(50);
    expect(s.summary.p95Ms).toBe(50);
  });

  it('reads at most maxRows rows, the newest, and says where its coverage starts', () => {
    const db = seed(Array.from({ length: 10 }, (_, i) => ({ ts: NOW - i * MIN })));
    const s = createRequestLogSeries(db, { maxRows: 4 }).series('hour', NOW);
    expect(s.summary.requests).toBe(4);
    expect(s.scan).toEqual({ rows: 4, maxRows: 4, truncated: true, coveredFrom: NOW - 4 * MIN + 1 });
    expect(s.totals.requests.slice(56)).toEqual([1, 1, 1, 1]);
    expect(s.totals.requests[55]).toBe(0);
  });

  it('an empty log gives zero buckets and null rates', () => {
    const s = createRequestLogSeries(seed([])).series('week', NOW);
    expect(s.totals.requests.every((v) => v === 0)).toBe(true);
    expect(s.summary).toMatchObject({ requests: 0, errorRate: null, failoverRate: null, p50Ms: null, p95Ms: null });
    expect(s.byConnection).toEqual([]);
  });

  it('searches the ts index (request_log_ts) rather than scanning the table, and stays fast at the row cap', () => {
    const rows = Array.from({ length: SERIES_MAX_ROWS }, (_, i) => ({
      ts: NOW - Math.floor((i * 6 * 24 * HOUR) / SERIES_MAX_ROWS),
      connection: `c${i % 7}`,
      key: `k${i % 5}`,
      latency: i % 3_000,
    }));
    const db = seed(rows);
    const plan = db
      .prepare<[{ origin: number; from: number; to: number; bucket: number }], { detail: string }>(
        `EXPLAIN QUERY PLAN ${GROUPS_SQL}`,
      )
      .all({ origin: 0, from: 0, to: NOW, bucket: HOUR });
    expect(plan.map((p) => p.detail).join(' | ')).toMatch(/USING (COVERING )?INDEX request_log_ts/);
    const started = performance.now();
    const week = createRequestLogSeries(db).series('week', NOW);
    const took = performance.now() - started;
    expect(week.summary.requests).toBe(SERIES_MAX_ROWS);
    expect(week.scan.truncated).toBe(false);
    // Generous for a loaded CI machine; locally it is tens of milliseconds.
    expect(took).toBeLessThan(1_500);
  });
});
