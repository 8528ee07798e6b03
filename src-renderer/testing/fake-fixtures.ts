import {
  OVERVIEW_BUCKET_MS,
  OVERVIEW_RANGE_MS,
  type OverviewRange,
  type OverviewSeries,
} from '../../src-shared/domain/overview';
import { effectiveBaseUrl, type ConnectionView } from '../../src-shared/domain/connection';
import type { RequestLogEntry } from '../../src-shared/domain/request-log';

/** A stored connection as the core would list it, for seeding the fake. */
export function fakeConnection(name: string, patch: Partial<ConnectionView> = {}): ConnectionView {
  const kind = patch.kind ?? 'anthropic';
  return {
    id: `id-${name}`,
    name,
    kind,
    baseUrl: null,
    effectiveBaseUrl: effectiveBaseUrl(kind, patch.baseUrl ?? null),
    models: [],
    modelAliases: {},
    priority: 1,
    enabled: true,
    maxConcurrent: null,
    disableCooling: false,
    providerSpecificData: {},
    secretHint: 'sk-ant-…9xQa',
    createdAt: 0,
    updatedAt: 0,
    ...patch,
  };
}

/** A finished request as the log lists it; `patch` says what the test is about. */
export function fakeRequest(id: number, ts: number, patch: Partial<RequestLogEntry> = {}): RequestLogEntry {
  return {
    id,
    ts,
    keyName: null,
    apiFormat: 'anthropic',
    endpoint: '/v1/messages',
    model: 'claude-sonnet-4-5',
    connection: null,
    status: 200,
    stream: false,
    latencyMs: 100,
    ttfbMs: null,
    inputTokens: null,
    outputTokens: null,
    cacheReadTokens: null,
    cacheWriteTokens: null,
    failover: [],
    errorCode: null,
    servedVia: null,
    sessionPin: null,
    ...patch,
  };
}

/** A range without traffic: every bucket zero, as the core answers an empty log. */
export function emptySeries(range: OverviewRange, at: number): OverviewSeries {
  const bucketMs = OVERVIEW_BUCKET_MS[range];
  const n = OVERVIEW_RANGE_MS[range] / bucketMs;
  const to = (Math.floor(at / bucketMs) + 1) * bucketMs;
  const from = to - n * bucketMs;
  const zeros = (): number[] => new Array<number>(n).fill(0);
  const nulls = (): null[] => new Array<null>(n).fill(null);
  return {
    range,
    bucketMs,
    from,
    to,
    at,
    buckets: Array.from({ length: n }, (_, i) => from + i * bucketMs),
    totals: {
      requests: zeros(),
      errors: zeros(),
      failovers: zeros(),
      inputTokens: zeros(),
      outputTokens: zeros(),
      p50Ms: nulls(),
      p95Ms: nulls(),
    },
    byConnection: [],
    byKey: [],
    summary: {
      requests: 0,
      errors: 0,
      failovers: 0,
      tokens: 0,
      inputTokens: 0,
      outputTokens: 0,
      errorRate: null,
      failoverRate: null,
      p50Ms: null,
      p95Ms: null,
    },
    scan: { rows: 0, maxRows: 50_000, truncated: false, coveredFrom: from },
  };
}
