import { describe, expect, it } from 'vitest';
import type { CooldownSnapshot } from '../../src-shared/domain/cooldown';
import type { QuotaPoolUsage } from '../../src-shared/domain/quota';
import { createMetrics } from './metrics';
import { catalogOf, entry, view } from './observability-fixtures.testkit';
import { parsePrometheusText, sampleValue } from './prometheus-text.testkit';
import type { QueueDepth } from './state-metrics';

const catalog = catalogOf(
  [
    { view: view('primary', { models: ['claude-sonnet-4-5'] }), secret: null },
    { view: view('backup'), secret: null },
  ],
  ['main'],
);

function setUp(state: { snapshot?: CooldownSnapshot; quota?: QuotaPoolUsage[]; queues?: QueueDepth[] } = {}) {
  const metrics = createMetrics(
    () => catalog,
    {
      snapshot: () => state.snapshot ?? null,
      quota: () => Promise.resolve(state.quota ?? []),
      queues: () => state.queues ?? [],
    },
    () => 5_000,
  );
  const scrape = async () => parsePrometheusText((await metrics.render()).body);
  return { metrics, scrape };
}

describe('metrics', () => {
  it('ISSUE-13: requests are counted by connection, model and status; latency and TTFB land in histograms', async () => {
    const { metrics, scrape } = setUp();
    for (let i = 0; i < 3; i++) metrics.observe(entry());
    metrics.observe(entry({ status: 503, connection: null, errorCode: 'all_targets_cooling_down', ttfbMs: null }));
    metrics.observe(entry({ model: 'claude-sonnet-4-5', connection: 'primary', latencyMs: 40_000 }));
    const s = await scrape();
    expect(sampleValue(s, 'leeway_requests_total', { connection: 'backup', model: 'main', status: '200' })).toBe(3);
    expect(sampleValue(s, 'leeway_requests_total', { connection: 'none', model: 'main', status: '503' })).toBe(1);
    expect(sampleValue(s, 'leeway_requests_total', { connection: 'primary', model: 'claude-sonnet-4-5' })).toBe(1);
    expect(sampleValue(s, 'leeway_request_duration_seconds_count', { connection: 'backup' })).toBe(3);
    expect(sampleValue(s, 'leeway_request_duration_seconds_bucket', { connection: 'primary', le: '30' })).toBe(0);
    expect(sampleValue(s, 'leeway_request_duration_seconds_bucket', { connection: 'primary', le: '60' })).toBe(1);
    expect(sampleValue(s, 'leeway_request_ttfb_seconds_count', { connection: 'backup' })).toBe(3);
    expect(sampleValue(s, 'leeway_request_ttfb_seconds_count', { connection: 'none' })).toBeUndefined();
    expect(sampleValue(s, 'leeway_tokens_total', { connection: 'backup', kind: 'input' })).toBe(3600);
  });

  it('ISSUE-13: label values stay bounded: unconfigured models and connections become "other"', async () => {
    const { metrics, scrape } = setUp();
    for (const model of ['gpt-x', 'whatever-1', 'whatever-2']) metrics.observe(entry({ model, connection: 'gone' }));
    const s = await scrape();
    expect(sampleValue(s, 'leeway_requests_total', { connection: 'other', model: 'other', status: '200' })).toBe(3);
    expect(s.filter((x) => x.name === 'leeway_requests_total')).toHaveLength(1);
  });

  it('ISSUE-13: failovers (not the answering attempt), holds and translations are counted', async () => {
    const { metrics, scrape } = setUp();
    metrics.observe(
      entry({
        failover: [
          { connection: 'primary', status: 429, reason: 'rate_limited' },
          { connection: 'backup', status: 200, reason: 'served' },
        ],
        heldMs: 1_500,
        translated: 'anthropic->openai',
      }),
    );
    metrics.observe(entry({ failover: [{ connection: 'primary', status: 429, reason: 'rate_limited' }] }));
    const s = await scrape();
    expect(sampleValue(s, 'leeway_failovers_total', { connection: 'primary', reason: 'rate_limited' })).toBe(2);
    expect(sampleValue(s, 'leeway_failovers_total', { connection: 'backup' })).toBeUndefined();
    expect(sampleValue(s, 'leeway_holds_total', { connection: 'backup' })).toBe(1);
    expect(sampleValue(s, 'leeway_held_seconds_total', { connection: 'backup' })).toBe(1.5);
    expect(sampleValue(s, 'leeway_translated_requests_total', { direction: 'anthropic->openai' })).toBe(1);
  });

  it('ISSUE-13: cooldowns, breakers, lockouts, quota and queue gauges are read at scrape time, stale series dropped', async () => {
    const state: Parameters<typeof setUp>[0] = {
      snapshot: {
        connections: [
          {
            id: 'id-primary',
            name: 'primary',
            provider: 'p',
            rateLimitedUntil: 9_000,
            backoffLevel: 1,
            testStatus: 'active',
            lastError: null,
            lastErrorType: null,
            errorCode: null,
            terminal: false,
            retryAfterMs: 4_000,
          },
        ],
        providers: [
          {
            provider: 'p',
            kind: 'anthropic',
            origin: 'o',
            profile: 'apikey',
            state: 'OPEN',
            failureCount: 5,
            retryAfterMs: 1,
            gate: null,
          },
        ],
        models: [
          {
            key: 'k',
            provider: 'p',
            connectionId: 'id-primary',
            connection: 'primary',
            model: 'm',
            reason: 'r',
            expiresAt: 9,
            failureCount: 1,
          },
        ],
        now: 5_000,
      },
      queues: [{ connection: 'primary', queued: 2, inFlight: 1 }],
      quota: [
        {
          poolId: 'p1',
          name: 'team',
          at: 5_000,
          saturationThreshold: 0.8,
          dimensions: [
            {
              dimensionKey: 'p1:requests:hourly',
              unit: 'requests',
              window: 'hourly',
              windowMs: 3_600_000,
              limit: 100,
              consumedTotal: 30,
              globalUsedPercent: 0.3,
              saturationSource: 'counter',
              mode: 'generous',
              keys: [
                {
                  keyId: 'k1',
                  key: 'alice',
                  policy: 'hard',
                  effectiveWeight: 1,
                  consumed: 30,
                  fairShare: 100,
                  remaining: 70,
                  deficit: -70,
                  borrowing: false,
                  decision: 'allow',
                },
              ],
              burnRate: { perSecond: 0, timeToExhaustionMs: null, samples: 0 },
              history: [],
            },
          ],
        },
      ],
    };
    const { scrape } = setUp(state);
    const s = await scrape();
    expect(sampleValue(s, 'leeway_cooldown_active', { connection: 'primary' })).toBe(1);
    expect(sampleValue(s, 'leeway_breaker_state', { provider: 'p', state: 'OPEN' })).toBe(1);
    expect(sampleValue(s, 'leeway_breaker_state', { provider: 'p', state: 'CLOSED' })).toBe(0);
    expect(sampleValue(s, 'leeway_lockouts_active', { connection: 'primary' })).toBe(1);
    expect(sampleValue(s, 'leeway_queue_depth', { connection: 'primary' })).toBe(2);
    expect(sampleValue(s, 'leeway_requests_in_flight', { connection: 'primary' })).toBe(1);
    const dim = { pool: 'team', unit: 'requests', window: 'hourly' };
    expect(sampleValue(s, 'leeway_quota_used_ratio', dim)).toBe(0.3);
    expect(sampleValue(s, 'leeway_quota_limit', dim)).toBe(100);
    expect(sampleValue(s, 'leeway_quota_key_consumed', { ...dim, key: 'alice' })).toBe(30);
    expect(sampleValue(s, 'leeway_quota_key_fair_share', { ...dim, key: 'alice' })).toBe(100);

    state.snapshot = { connections: [], providers: [], models: [], now: 6_000 };
    state.queues = [];
    const later = await scrape();
    expect(sampleValue(later, 'leeway_cooldown_active', { connection: 'primary' })).toBeUndefined();
    expect(sampleValue(later, 'leeway_queue_depth', { connection: 'primary' })).toBeUndefined();
  });

  it('ISSUE-13: two metrics instances never share series (own registry, not the global one)', async () => {
    const a = setUp();
    const b = setUp();
    a.metrics.observe(entry());
    expect(sampleValue(await b.scrape(), 'leeway_requests_total', { connection: 'backup' })).toBeUndefined();
    expect(sampleValue(await a.scrape(), 'leeway_requests_total', { connection: 'backup' })).toBe(1);
  });
});
