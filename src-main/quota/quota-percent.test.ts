import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, type RunningLeeway } from '../testing/start-leeway';
import { ask, startQuotaLeeway, usageOf, waitForConsumed, type QuotaErrorBody } from './quota.testkit';

let upstreams: FakeUpstream[] = [];
let leeway: RunningLeeway | null = null;

afterEach(async () => {
  await leeway?.stop();
  leeway = null;
  await Promise.all(upstreams.map((u) => u.close()));
  upstreams = [];
});

const P = 'anthropic-ratelimit-unified-';
const util = (fiveHour: number) => ({
  kind: 'ok' as const,
  headers: { [`${P}5h-utilization`]: String(fiveHour), [`${P}7d-utilization`]: '0.05' },
});

async function start() {
  const acct = await startFakeUpstream({ format: 'anthropic', name: 'max' });
  upstreams.push(acct);
  leeway = await startQuotaLeeway({ connections: [anthropicConnection('max', acct.url)] }, [
    {
      name: 'max-team',
      connection: 'max',
      dimensions: [{ unit: 'percent', window: '5h', limit: 100 }],
      allocations: [
        { key: 'alice', weight: 50, policy: 'hard' },
        { key: 'bob', weight: 50, policy: 'hard' },
      ],
    },
  ]);
  return { acct, h: leeway };
}

async function send(h: RunningLeeway, key: 'alice' | 'bob') {
  const res = await ask(h, key, 'claude-sonnet-4-5');
  await res.text();
  return res;
}

describe('percent dimensions from the provider’s utilisation headers', () => {
  it('QPIPE-6, QFAIR-11: each response’s growth of the 5h utilisation is the requesting key’s; the pool turns strict from the report and holds the key at its half', async () => {
    const { acct, h } = await start();
    // The first report has no "before": nothing is attributed.
    acct.enqueue(util(0.1), util(0.3), util(0.5), util(0.6));
    expect((await send(h, 'alice')).status).toBe(200);
    expect((await send(h, 'alice')).status).toBe(200);
    await waitForConsumed(h, 'max-team', 'alice', 20);
    expect((await send(h, 'alice')).status).toBe(200);
    await waitForConsumed(h, 'max-team', 'alice', 40);
    // Reported 50 %: strict now, alice at 40 of her 50 may still go.
    expect((await send(h, 'alice')).status).toBe(200);
    const consumed = await waitForConsumed(h, 'max-team', 'alice', 50);
    expect(consumed).toBeCloseTo(50, 6);

    const usage = await usageOf(h, 'max-team');
    expect(usage.dimensions[0]).toMatchObject({
      unit: 'percent',
      window: '5h',
      saturationSource: 'provider',
      mode: 'strict',
    });
    expect(usage.dimensions[0]?.globalUsedPercent).toBeCloseTo(0.6, 6);

    const held = await ask(h, 'alice', 'claude-sonnet-4-5');
    const body = (await held.json()) as QuotaErrorBody;
    expect(held.status).toBe(429);
    expect(body.leeway.details).toMatchObject({
      pool: 'max-team',
      key: 'alice',
      dimension: { unit: 'percent', window: '5h', limit: 100 },
      fairShare: 50,
      mode: 'strict',
      reason: 'fair-share',
    });
    // A provider-reported percentage cannot be predicted: looked at again once the report is stale.
    expect(Number(held.headers.get('retry-after'))).toBe(30);
    expect(acct.requests).toHaveLength(4);
    // Bob has spent nothing of his half.
    acct.enqueue(util(0.62));
    expect((await send(h, 'bob')).status).toBe(200);
    await waitForConsumed(h, 'max-team', 'bob', 2);
  });

  it('QPIPE-6: without utilisation headers a percent dimension counts nothing and never blocks', async () => {
    const { acct, h } = await start();
    for (let i = 0; i < 8; i++) expect((await send(h, 'alice')).status).toBe(200);
    expect(acct.requests).toHaveLength(8);
    const usage = await usageOf(h, 'max-team');
    expect(usage.dimensions[0]?.consumedTotal).toBe(0);
    expect(usage.dimensions[0]?.saturationSource).toBe('counter');
  });
});
