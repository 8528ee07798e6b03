import { z } from 'zod';
import type { ConnectionKind } from './connection';
import type { QuotaMode, QuotaUnit, QuotaWindow } from './quota';

/**
 * Issue 13 §4 and §8: the Overview tab's time series (from the request log) and the usage summary
 * (`GET /api/usage/summary`) that the tab and menu-bar apps read. Shapes only; the core builds them.
 */
export const OVERVIEW_RANGES = ['hour', 'day', 'week'] as const;
export type OverviewRange = (typeof OVERVIEW_RANGES)[number];
export const overviewRangeSchema = z.enum(OVERVIEW_RANGES);

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** How long each range looks back. */
export const OVERVIEW_RANGE_MS: Readonly<Record<OverviewRange, number>> = {
  hour: HOUR_MS,
  day: 24 * HOUR_MS,
  week: 7 * 24 * HOUR_MS,
};

/** One bucket per minute, per quarter hour, per hour: 60, 96 and 168 points. */
export const OVERVIEW_BUCKET_MS: Readonly<Record<OverviewRange, number>> = {
  hour: MINUTE_MS,
  day: 15 * MINUTE_MS,
  week: HOUR_MS,
};

/** Counts over a range or a group; `tokens` is input + output (cache reads and writes are not counted). */
export interface OverviewCounts {
  requests: number;
  /** Answers with status ≥ 400, Leeway's own refusals included. */
  errors: number;
  /** Requests that tried at least one other connection first. */
  failovers: number;
  tokens: number;
}

/** One connection's or key's series, one value per bucket (same order as `OverviewSeries.buckets`). */
export interface OverviewGroup {
  /** The connection or key name; null: none (refused before routing, or no local key). */
  name: string | null;
  /** True for the row that sums every group past the first few. */
  other: boolean;
  total: OverviewCounts;
  requests: number[];
  tokens: number[];
  errors: number[];
  failovers: number[];
}

export interface OverviewSeries {
  range: OverviewRange;
  bucketMs: number;
  /** The buckets cover [from, to); `to` is the end of the bucket holding `at`. */
  from: number;
  to: number;
  at: number;
  /** Start of each bucket, oldest first. */
  buckets: number[];
  totals: {
    requests: number[];
    errors: number[];
    failovers: number[];
    inputTokens: number[];
    outputTokens: number[];
    /** Latency of the requests that reached an upstream; null for a bucket without any. */
    p50Ms: (number | null)[];
    p95Ms: (number | null)[];
  };
  /** The busiest groups first, then one `other` group when there were more. */
  byConnection: OverviewGroup[];
  byKey: OverviewGroup[];
  summary: OverviewCounts & {
    inputTokens: number;
    outputTokens: number;
    /** errors / requests; null without requests. */
    errorRate: number | null;
    failoverRate: number | null;
    p50Ms: number | null;
    p95Ms: number | null;
    /** Issue 24 §3: warm prompt-cache tokens sessions threw away by moving, and what rebuilding them costs (USD). */
    cacheLostTokens: number;
    cacheLostUsd: number;
  };
  /** The aggregation reads at most `maxRows` rows (the newest); older rows of the range are left out when it would read more. */
  scan: { rows: number; maxRows: number; truncated: boolean; coveredFrom: number };
}

/** One Claude usage window in used/limit form: `used` percent of 100, null when not known (or unknown since its reset). */
export interface UsageWindowSummary {
  /** The window as Anthropic names it: `5h`, `7d`, `7d_opus` … */
  window: string;
  unit: 'percent';
  used: number | null;
  limit: 100;
  /** Epoch ms; null when the upstream did not say. */
  resetsAt: number | null;
  status: string | null;
}

export interface ConnectionUsageSummary {
  name: string;
  kind: ConnectionKind;
  enabled: boolean;
  /** When the windows were last read off a response; null: never (windows is empty). */
  observedAt: number | null;
  /** The subscription's overall state (`allowed`, `allowed_warning`, `rejected`); null when unknown. */
  status: string | null;
  windows: UsageWindowSummary[];
}

export interface PoolDimensionSummary {
  unit: QuotaUnit;
  window: QuotaWindow;
  used: number;
  /** 0 means the limit is not known. */
  limit: number;
  /** 0..100: the provider's reported figure where it reports one, else used / limit; null when neither is known. */
  usedPercent: number | null;
  /** The next boundary of the window's buckets: the older bucket has aged out entirely by then (sliding window). */
  resetsAt: number;
  mode: QuotaMode;
}

export interface PoolUsageSummary {
  name: string;
  connections: string[];
  /** 0..1: from this fraction on the pool holds every key to its share. */
  saturationThreshold: number;
  dimensions: PoolDimensionSummary[];
}

/** `GET /api/usage/summary` and `overview.usage`: per connection and per quota pool, used / limit / resets-at. */
export interface UsageSummary {
  at: number;
  connections: ConnectionUsageSummary[];
  pools: PoolUsageSummary[];
}
