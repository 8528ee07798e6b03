import { afterEach, describe, expect, it } from 'vitest';
import type { ClaudeConnectionStatus } from '../../../src-shared/domain/claude';
import type { OverviewSeries, UsageSummary } from '../../../src-shared/domain/overview';
import type { QuotaAdmin } from '../../quota/quota-ports';
import { FAKE_STORE_STATUS, zeroUsage } from './fake-quota-admin.testkit';
import { connectionDraft, startHandlersHarness, T0, type HandlersHarness } from './handlers-harness.testkit';
import { overviewHandlers, SERIES_REUSE_MS } from './overview';
import { createRouter, type Router } from '../router';

const open: HandlersHarness[] = [];
afterEach(() => {
  for (const h of open.splice(0)) h.close();
});

const HOUR = 3_600_000;
const RESETS_AT = T0 + 2 * HOUR;

/** Real storage; the quota engine answers 450 of 500 requests used, Claude reports 42 % of its 5-hour window. */
function setUp(claude: ClaudeConnectionStatus[] = []): { h: HandlersHarness; router: Router; now: { at: number } } {
  const h = startHandlersHarness();
  open.push(h);
  const max = h.storage.connections.upsert({ ...connectionDraft('max-1'), kind: 'claude-oauth' }, T0);
  h.storage.connections.upsert(connectionDraft('team-key'), T0);
  const alice = h.storage.keys.create({ name: 'alice' }, T0);
  if (!alice.ok) throw new Error(alice.error.message);
  const pool = h.storage.quotaPools.upsert(
    {
      name: 'team',
      connections: ['max-1'],
      dimensions: [{ unit: 'requests', window: 'hourly', limit: 500 }],
      allocations: [{ key: 'alice', weight: 0, policy: 'hard', capValue: null, capUnit: null }],
      saturationThreshold: 0.8,
    },
    T0,
  );
  if (!pool.ok) throw new Error(pool.error.message);
  const quota: QuotaAdmin = {
    usage: (id, at) => {
      const found = h.storage.quotaPools.list().find((p) => p.id === id || p.name === id);
      if (!found) return Promise.resolve(null);
      const base = zeroUsage(found, at);
      const dimensions = base.dimensions.map((d) => ({
        ...d,
        consumedTotal: 450,
        globalUsedPercent: 0.9,
        mode: 'strict' as const,
      }));
      return Promise.resolve({ ...base, saturationThreshold: 0.8, dimensions });
    },
    storeStatus: () => FAKE_STORE_STATUS,
  };
  const now = { at: T0 };
  const statuses = claude.map((s) => ({ ...s, connectionId: s.connectionId === 'max-1' ? max.id : s.connectionId }));
  const handlers = overviewHandlers({
    series: h.storage.series,
    requestLog: h.storage.requestLog,
    connections: h.storage.connections,
    quotaPools: h.storage.quotaPools,
    quota,
    claudeStatus: () => statuses,
    now: () => now.at,
  });
  return { h, router: createRouter({ ...h.handlers, ...handlers }), now };
}

function logRequest(h: HandlersHarness, ts: number, patch: { status?: number; connection?: string | null } = {}): void {
  h.storage.requestLog.append({
    ts,
    keyName: 'alice',
    apiFormat: 'anthropic',
    endpoint: '/v1/messages',
    model: 'claude-sonnet-4-5',
    connection: patch.connection === undefined ? 'max-1' : patch.connection,
    status: patch.status ?? 200,
    stream: false,
    latencyMs: 250,
    ttfbMs: 100,
    inputTokens: 12,
    outputTokens: 30,
    cacheReadTokens: null,
    cacheWriteTokens: null,
    failover: [],
    errorCode: null,
    servedVia: null,
    sessionPin: null,
  });
}

async function series(router: Router, range: string): Promise<OverviewSeries> {
  const result = await router.call('overview.series', { range });
  if (!result.ok) throw new Error(result.error.message);
  return result.value as OverviewSeries;
}

const claudeMax: ClaudeConnectionStatus = {
  connectionId: 'max-1',
  usage: {
    status: 'allowed',
    windows: {
      '5h': { utilization: 0.42, resetsAtSeconds: RESETS_AT / 1000, status: 'allowed' },
      '7d': { utilization: 0.9, resetsAtSeconds: (T0 - 1_000) / 1000 },
    },
    observedAt: T0 - 5_000,
  },
  lane: { kind: 'idle' },
  lastReset: null,
  lastVia: null,
};

describe('overview handlers (issue 13 §4, §8)', () => {
  it('overview.series counts requests still buffered in the log (it flushes first), with errors and tokens', async () => {
    const { h, router } = setUp();
    logRequest(h, T0 - 1_000);
    logRequest(h, T0 - 2_000, { status: 503, connection: null });
    const s = await series(router, 'hour');
    expect(s.summary).toMatchObject({ requests: 2, errors: 1, tokens: 84, p50Ms: 250 });
    expect(s.byConnection.map((g) => g.name)).toEqual(['max-1', null]);
    expect(s.byKey.map((g) => [g.name, g.total.requests])).toEqual([['alice', 2]]);
  });

  it('overview.series refuses a range it does not know', async () => {
    const { router } = setUp();
    const result = await router.call('overview.series', { range: 'month' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe('invalid_input');
  });

  it('reuses an answer for a moment per range, then reads the log again', async () => {
    const { h, router, now } = setUp();
    logRequest(h, T0 - 1_000);
    expect((await series(router, 'hour')).summary.requests).toBe(1);
    logRequest(h, T0 - 500);
    expect((await series(router, 'hour')).summary.requests).toBe(1);
    now.at = T0 + SERIES_REUSE_MS.hour;
    expect((await series(router, 'hour')).summary.requests).toBe(2);
  });

  it('overview.usage lists every connection, Claude windows as used/limit/resets-at, and each pool per dimension', async () => {
    const { router } = setUp([claudeMax]);
    const result = await router.call('overview.usage', undefined);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const summary = result.value as UsageSummary;
    expect(summary.at).toBe(T0);
    expect(summary.connections).toEqual([
      {
        name: 'max-1',
        kind: 'claude-oauth',
        enabled: true,
        observedAt: T0 - 5_000,
        status: 'allowed',
        windows: [
          { window: '5h', unit: 'percent', used: 42, limit: 100, resetsAt: RESETS_AT, status: 'allowed' },
          // Past its reset: the last figure no longer holds.
          { window: '7d', unit: 'percent', used: null, limit: 100, resetsAt: T0 - 1_000, status: null },
        ],
      },
      { name: 'team-key', kind: 'anthropic', enabled: true, observedAt: null, status: null, windows: [] },
    ]);
    expect(summary.pools).toEqual([
      {
        name: 'team',
        connections: ['max-1'],
        saturationThreshold: 0.8,
        dimensions: [
          {
            unit: 'requests',
            window: 'hourly',
            used: 450,
            limit: 500,
            usedPercent: 90,
            resetsAt: (Math.floor(T0 / HOUR) + 1) * HOUR,
            mode: 'strict',
          },
        ],
      },
    ]);
  });
});
