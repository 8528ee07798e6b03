import {
  OVERVIEW_BUCKET_MS,
  OVERVIEW_RANGE_MS,
  type OverviewCounts,
  type OverviewGroup,
  type OverviewRange,
  type OverviewSeries,
} from '../../src-shared/domain/overview';
import type { Database } from './open';

/**
 * Read-only aggregation of `request_log` into the Overview's buckets (issue 13 §4), done in SQL: one
 * GROUP BY (bucket, connection, key) for counts and tokens, one for latency percentiles per bucket,
 * one for the whole range. The scan is bounded: at most `maxRows` rows (the newest) are read, which
 * with the default log size (50 000 rows) is the whole log: a full week of it takes about 100 ms on a
 * busy two-core machine, an hour a few ms (the handler reuses answers briefly on top).
 * Percentiles are exact, by SQLite's `percentile()` (linear interpolation, compiled into
 * better-sqlite3); a build without it falls back to nearest rank over window functions.
 */
export interface RequestLogSeries {
  series(range: OverviewRange, now: number): OverviewSeries;
}

/** Rows one call may aggregate: the request log's default size, so a default setup is never cut. */
export const SERIES_MAX_ROWS = 50_000;
/** Groups shown by name per dimension; the rest are summed into one `other` group. */
export const SERIES_TOP_GROUPS = 8;

/** Rows with `from <= ts < to`, bucketed from `origin` (the range's start, whatever the scan skips). */
interface Window {
  origin: number;
  from: number;
  to: number;
  bucket: number;
}

interface GroupRow {
  b: number;
  connection: string | null;
  key_name: string | null;
  requests: number;
  errors: number;
  failovers: number;
  input_tokens: number;
  output_tokens: number;
  cache_lost_tokens: number;
  cache_lost_usd: number;
}

interface PercentileRow {
  b: number;
  p50: number | null;
  p95: number | null;
}

// Integer division needs integer operands; better-sqlite3 binds JS numbers as REAL.
const BUCKET = 'CAST((ts - @origin) / @bucket AS INTEGER)';

/** Exported for the query-plan test: it must search the `ts` index, never scan the table. */
export const GROUPS_SQL = `
  SELECT ${BUCKET} AS b, connection, key_name, COUNT(*) AS requests, SUM(status >= 400) AS errors,
    SUM(failover_json <> '[]') AS failovers, TOTAL(input_tokens) AS input_tokens, TOTAL(output_tokens) AS output_tokens,
    TOTAL(cache_lost_tokens) AS cache_lost_tokens, TOTAL(cache_lost_usd) AS cache_lost_usd
  FROM request_log WHERE ts >= @from AND ts < @to
  GROUP BY b, connection, key_name`;

// Latency counts only requests that reached an upstream: Leeway's own refusals take no time.
const SQLITE_PERCENTILES = {
  buckets: `
    SELECT ${BUCKET} AS b, percentile(latency_ms, 50) AS p50, percentile(latency_ms, 95) AS p95
    FROM request_log WHERE ts >= @from AND ts < @to AND connection IS NOT NULL GROUP BY b`,
  whole: `
    SELECT 0 AS b, percentile(latency_ms, 50) AS p50, percentile(latency_ms, 95) AS p95
    FROM request_log WHERE ts >= @from AND ts < @to AND connection IS NOT NULL`,
};

const ranked = (partition: string): string => `
  SELECT ${partition} AS b, latency_ms,
    ROW_NUMBER() OVER (PARTITION BY ${partition} ORDER BY latency_ms) AS rn,
    COUNT(*) OVER (PARTITION BY ${partition}) AS n
  FROM request_log WHERE ts >= @from AND ts < @to AND connection IS NOT NULL`;
const nearestRank = (partition: string): string => `
  SELECT b, MIN(CASE WHEN rn >= 0.5 * n THEN latency_ms END) AS p50, MIN(CASE WHEN rn >= 0.95 * n THEN latency_ms END) AS p95
  FROM (${ranked(partition)}) GROUP BY b`;
const WINDOW_PERCENTILES = { buckets: nearestRank(BUCKET), whole: nearestRank('0') };

function preparePercentiles(db: Database, portable: boolean) {
  const prepare = (sql: { buckets: string; whole: string }) => ({
    buckets: db.prepare<[Window], PercentileRow>(sql.buckets),
    whole: db.prepare<[Window], PercentileRow>(sql.whole),
  });
  if (portable) return prepare(WINDOW_PERCENTILES);
  try {
    return prepare(SQLITE_PERCENTILES);
  } catch {
    // "no such function: percentile": a SQLite built without SQLITE_ENABLE_PERCENTILE.
    return prepare(WINDOW_PERCENTILES);
  }
}

const zeros = (n: number): number[] => new Array<number>(n).fill(0);
const round = (v: number | null): number | null => (v === null ? null : Math.round(v));
const rate = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);

interface Accumulator {
  name: string | null;
  total: OverviewCounts;
  requests: number[];
  tokens: number[];
  errors: number[];
  failovers: number[];
}

function accumulator(name: string | null, n: number): Accumulator {
  return {
    name,
    total: { requests: 0, errors: 0, failovers: 0, tokens: 0 },
    requests: zeros(n),
    tokens: zeros(n),
    errors: zeros(n),
    failovers: zeros(n),
  };
}

type Counts = Pick<GroupRow, 'requests' | 'errors' | 'failovers'>;

function addTo(acc: Accumulator, b: number, row: Counts, tokens: number): void {
  acc.requests[b] = (acc.requests[b] ?? 0) + row.requests;
  acc.tokens[b] = (acc.tokens[b] ?? 0) + tokens;
  acc.errors[b] = (acc.errors[b] ?? 0) + row.errors;
  acc.failovers[b] = (acc.failovers[b] ?? 0) + row.failovers;
  acc.total.requests += row.requests;
  acc.total.tokens += tokens;
  acc.total.errors += row.errors;
  acc.total.failovers += row.failovers;
}

/** The busiest `top` groups by requests, and the rest summed into one `other` group. */
function topGroups(groups: Map<string | null, Accumulator>, n: number, top: number): OverviewGroup[] {
  // Ties: named groups by name, the unnamed one last.
  const sorted = [...groups.values()].sort(
    (a, b) =>
      b.total.requests - a.total.requests ||
      Number(a.name === null) - Number(b.name === null) ||
      (a.name ?? '').localeCompare(b.name ?? ''),
  );
  const shown: OverviewGroup[] = sorted.slice(0, top).map((g) => ({ ...g, other: false }));
  const rest = sorted.slice(top);
  if (rest.length === 0) return shown;
  const other = accumulator(null, n);
  for (const g of rest) {
    for (let b = 0; b < n; b++) {
      const counts = { requests: g.requests[b] ?? 0, errors: g.errors[b] ?? 0, failovers: g.failovers[b] ?? 0 };
      addTo(other, b, counts, g.tokens[b] ?? 0);
    }
  }
  return [...shown, { ...other, other: true }];
}

/** Prepares the statements once; each call is three reads inside one implicit snapshot per statement. */
export function createRequestLogSeries(
  db: Database,
  opts: { maxRows?: number; topGroups?: number; portablePercentiles?: boolean } = {},
): RequestLogSeries {
  const maxRows = Math.max(1, Math.floor(opts.maxRows ?? SERIES_MAX_ROWS));
  const top = Math.max(1, Math.floor(opts.topGroups ?? SERIES_TOP_GROUPS));
  // The ts of the first row past the cap, counting back from the newest: the scan starts after it.
  const cutoff = db.prepare<[{ from: number; to: number; skip: number }], { ts: number }>(
    'SELECT ts FROM request_log WHERE ts >= @from AND ts < @to ORDER BY ts DESC LIMIT 1 OFFSET @skip',
  );
  const groups = db.prepare<[Window], GroupRow>(GROUPS_SQL);
  const percentiles = preparePercentiles(db, opts.portablePercentiles === true);

  return {
    series(range, now) {
      const bucket = OVERVIEW_BUCKET_MS[range];
      const n = OVERVIEW_RANGE_MS[range] / bucket;
      const to = (Math.floor(now / bucket) + 1) * bucket;
      const from = to - n * bucket;
      const cut = cutoff.get({ from, to, skip: maxRows });
      const scanFrom = cut === undefined ? from : cut.ts + 1;
      const scanned: Window = { origin: from, from: scanFrom, to, bucket };

      const requests = zeros(n);
      const errors = zeros(n);
      const failovers = zeros(n);
      const inputTokens = zeros(n);
      const outputTokens = zeros(n);
      const byConnection = new Map<string | null, Accumulator>();
      const byKey = new Map<string | null, Accumulator>();
      let rows = 0;
      let cacheLostTokens = 0;
      let cacheLostUsd = 0;
      for (const row of groups.all(scanned)) {
        const b = row.b;
        if (b < 0 || b >= n) continue;
        rows += row.requests;
        cacheLostTokens += row.cache_lost_tokens;
        cacheLostUsd += row.cache_lost_usd;
        const tokens = row.input_tokens + row.output_tokens;
        requests[b] = (requests[b] ?? 0) + row.requests;
        errors[b] = (errors[b] ?? 0) + row.errors;
        failovers[b] = (failovers[b] ?? 0) + row.failovers;
        inputTokens[b] = (inputTokens[b] ?? 0) + row.input_tokens;
        outputTokens[b] = (outputTokens[b] ?? 0) + row.output_tokens;
        for (const [map, name] of [
          [byConnection, row.connection],
          [byKey, row.key_name],
        ] as const) {
          let acc = map.get(name);
          if (acc === undefined) map.set(name, (acc = accumulator(name, n)));
          addTo(acc, b, row, tokens);
        }
      }

      const p50Ms: (number | null)[] = new Array<number | null>(n).fill(null);
      const p95Ms: (number | null)[] = new Array<number | null>(n).fill(null);
      for (const row of percentiles.buckets.all(scanned)) {
        if (row.b < 0 || row.b >= n) continue;
        p50Ms[row.b] = round(row.p50);
        p95Ms[row.b] = round(row.p95);
      }
      const whole = percentiles.whole.get(scanned);
      const sum = (values: number[]): number => values.reduce((s, v) => s + v, 0);
      const total = { requests: sum(requests), errors: sum(errors), failovers: sum(failovers) };
      const input = sum(inputTokens);
      const output = sum(outputTokens);

      return {
        range,
        bucketMs: bucket,
        from,
        to,
        at: now,
        buckets: Array.from({ length: n }, (_, i) => from + i * bucket),
        totals: { requests, errors, failovers, inputTokens, outputTokens, p50Ms, p95Ms },
        byConnection: topGroups(byConnection, n, top),
        byKey: topGroups(byKey, n, top),
        summary: {
          ...total,
          tokens: input + output,
          inputTokens: input,
          outputTokens: output,
          errorRate: rate(total.errors, total.requests),
          failoverRate: rate(total.failovers, total.requests),
          p50Ms: round(whole?.p50 ?? null),
          p95Ms: round(whole?.p95 ?? null),
          cacheLostTokens,
          cacheLostUsd,
        },
        scan: { rows, maxRows, truncated: cut !== undefined, coveredFrom: scanFrom },
      };
    },
  };
}
