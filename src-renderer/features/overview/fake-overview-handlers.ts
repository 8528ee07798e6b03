import { ok } from '../../../src-shared/contract/errors';
import {
  OVERVIEW_BUCKET_MS,
  OVERVIEW_RANGE_MS,
  type OverviewGroup,
  type OverviewRange,
  type OverviewSeries,
  type UsageSummary,
} from '../../../src-shared/domain/overview';
import type { RequestLogEntry } from '../../../src-shared/domain/request-log';
import { idleUsage } from '../../api/fake-quota-handlers';
import type { FakeHandlers, FakeState } from '../../api/fake-handlers';

const zeros = (n: number): number[] => new Array<number>(n).fill(0);
const tokensOf = (e: RequestLogEntry): number => (e.inputTokens ?? 0) + (e.outputTokens ?? 0);

/** Nearest rank, as the core's portable fallback computes it. */
function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? null;
}

function groupsOf(
  entries: RequestLogEntry[],
  n: number,
  index: (e: RequestLogEntry) => number,
  name: (e: RequestLogEntry) => string | null,
): OverviewGroup[] {
  const groups = new Map<string | null, OverviewGroup>();
  for (const e of entries) {
    const key = name(e);
    let g = groups.get(key);
    if (!g) {
      g = {
        name: key,
        other: false,
        total: { requests: 0, errors: 0, failovers: 0, tokens: 0 },
        requests: zeros(n),
        tokens: zeros(n),
        errors: zeros(n),
        failovers: zeros(n),
      };
      groups.set(key, g);
    }
    const b = index(e);
    const error = e.status >= 400 ? 1 : 0;
    const failover = e.failover.length > 0 ? 1 : 0;
    g.requests[b] = (g.requests[b] ?? 0) + 1;
    g.tokens[b] = (g.tokens[b] ?? 0) + tokensOf(e);
    g.errors[b] = (g.errors[b] ?? 0) + error;
    g.failovers[b] = (g.failovers[b] ?? 0) + failover;
    g.total.requests++;
    g.total.tokens += tokensOf(e);
    g.total.errors += error;
    g.total.failovers += failover;
  }
  return [...groups.values()].sort((a, b) => b.total.requests - a.total.requests);
}

/** The core's aggregation over the fake's activity list, in memory, for component tests. */
export function fakeSeries(activity: RequestLogEntry[], range: OverviewRange, now: number): OverviewSeries {
  const bucket = OVERVIEW_BUCKET_MS[range];
  const n = OVERVIEW_RANGE_MS[range] / bucket;
  const to = (Math.floor(now / bucket) + 1) * bucket;
  const from = to - n * bucket;
  const inRange = activity.filter((e) => e.ts >= from && e.ts < to);
  const index = (e: RequestLogEntry): number => Math.floor((e.ts - from) / bucket);
  const served = inRange.filter((e) => e.connection !== null);
  const totals = {
    requests: zeros(n),
    errors: zeros(n),
    failovers: zeros(n),
    inputTokens: zeros(n),
    outputTokens: zeros(n),
    p50Ms: Array.from({ length: n }, (_, b) =>
      percentile(
        served.filter((e) => index(e) === b).map((e) => e.latencyMs),
        0.5,
      ),
    ),
    p95Ms: Array.from({ length: n }, (_, b) =>
      percentile(
        served.filter((e) => index(e) === b).map((e) => e.latencyMs),
        0.95,
      ),
    ),
  };
  for (const e of inRange) {
    const b = index(e);
    totals.requests[b] = (totals.requests[b] ?? 0) + 1;
    totals.errors[b] = (totals.errors[b] ?? 0) + (e.status >= 400 ? 1 : 0);
    totals.failovers[b] = (totals.failovers[b] ?? 0) + (e.failover.length > 0 ? 1 : 0);
    totals.inputTokens[b] = (totals.inputTokens[b] ?? 0) + (e.inputTokens ?? 0);
    totals.outputTokens[b] = (totals.outputTokens[b] ?? 0) + (e.outputTokens ?? 0);
  }
  const sum = (values: number[]): number => values.reduce((s, v) => s + v, 0);
  const requests = inRange.length;
  const errors = sum(totals.errors);
  const failovers = sum(totals.failovers);
  const inputTokens = sum(totals.inputTokens);
  const outputTokens = sum(totals.outputTokens);
  return {
    range,
    bucketMs: bucket,
    from,
    to,
    at: now,
    buckets: Array.from({ length: n }, (_, i) => from + i * bucket),
    totals,
    byConnection: groupsOf(inRange, n, index, (e) => e.connection),
    byKey: groupsOf(inRange, n, index, (e) => e.keyName),
    summary: {
      requests,
      errors,
      failovers,
      tokens: inputTokens + outputTokens,
      inputTokens,
      outputTokens,
      errorRate: requests > 0 ? errors / requests : null,
      failoverRate: requests > 0 ? failovers / requests : null,
      p50Ms: percentile(
        served.map((e) => e.latencyMs),
        0.5,
      ),
      p95Ms: percentile(
        served.map((e) => e.latencyMs),
        0.95,
      ),
    },
    scan: { rows: requests, maxRows: 50_000, truncated: false, coveredFrom: from },
  };
}

/** The usage summary from the fake's connections, Claude statuses and pools (idle usage unless seeded). */
export function fakeUsage(state: FakeState, now: number): UsageSummary {
  const claude = new Map(state.claude.map((s) => [s.connectionId, s]));
  return {
    at: now,
    connections: state.connections.map((c) => {
      const usage = claude.get(c.id)?.usage ?? null;
      return {
        name: c.name,
        kind: c.kind,
        enabled: c.enabled,
        observedAt: usage?.observedAt ?? null,
        status: usage?.status ?? null,
        windows: Object.entries({
          ...(usage?.fiveHour ? { '5h': usage.fiveHour } : {}),
          ...(usage?.sevenDay ? { '7d': usage.sevenDay } : {}),
          ...(usage?.windows ?? {}),
        }).map(([window, w]) => ({
          window,
          unit: 'percent' as const,
          used: w.utilization === undefined ? null : Math.round(w.utilization * 1000) / 10,
          limit: 100 as const,
          resetsAt: w.resetsAtSeconds === undefined ? null : w.resetsAtSeconds * 1000,
          status: w.status ?? null,
        })),
      };
    }),
    pools: state.quotaPools.map((pool) => {
      const usage = state.quotaUsage[pool.id] ?? idleUsage(pool, now, state.quotaStoreStatus.saturationThreshold);
      return {
        name: pool.name,
        connections: pool.connections,
        saturationThreshold: usage.saturationThreshold,
        dimensions: usage.dimensions.map((d) => ({
          unit: d.unit,
          window: d.window,
          used: d.consumedTotal,
          limit: d.limit,
          usedPercent: d.limit > 0 ? Math.round(d.globalUsedPercent * 1000) / 10 : null,
          resetsAt: (Math.floor(now / d.windowMs) + 1) * d.windowMs,
          mode: d.mode,
        })),
      };
    }),
  };
}

/** `overview.*` over the fake core's memory; the fake's handler table spreads these in. */
export function createFakeOverviewHandlers(
  state: FakeState,
  now: () => number,
): Pick<FakeHandlers, 'overview.series' | 'overview.usage'> {
  return {
    'overview.series': ({ range }) => ok(fakeSeries(state.activity, range, now())),
    'overview.usage': () => ok(fakeUsage(state, now())),
  };
}
