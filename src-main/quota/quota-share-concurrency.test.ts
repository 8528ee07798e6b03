import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, type RunningLeeway } from '../testing/start-leeway';
import { ask, call, KEYS, startQuotaLeeway } from './quota.testkit';

let upstreams: FakeUpstream[] = [];
let leeway: RunningLeeway | null = null;

afterEach(async () => {
  await leeway?.stop();
  leeway = null;
  await Promise.all(upstreams.map((u) => u.close()));
  upstreams = [];
});

const MODEL = 'claude-sonnet-4-5';

/** Two accounts of one family, one request at a time each (maxConcurrent 1), pooled as qtSd/fam. */
async function family() {
  const a1 = await startFakeUpstream({ format: 'anthropic', name: 'a1' });
  const a2 = await startFakeUpstream({ format: 'anthropic', name: 'a2' });
  upstreams.push(a1, a2);
  const h = (leeway = await startQuotaLeeway(
    {
      connections: [
        anthropicConnection('a1', a1.url, { models: [MODEL], maxConcurrent: 1 }),
        anthropicConnection('a2', a2.url, { models: [MODEL], maxConcurrent: 1 }),
      ],
    },
    [
      {
        name: 'fam',
        connections: ['a1', 'a2'],
        dimensions: [{ unit: 'requests', window: 'hourly', limit: 1000 }],
        allocations: [{ key: 'alice', weight: 100, policy: 'hard' }],
      },
    ],
  ));
  return { a1, a2, h };
}

/** Holds a connection's only slot with a request its upstream never answers (carol: outside the pool). */
async function hold(h: RunningLeeway, upstream: FakeUpstream, connection: string) {
  upstream.enqueue({ kind: 'hang' });
  const controller = new AbortController();
  const pending = fetch(`${h.url}/v1/messages`, {
    method: 'POST',
    signal: controller.signal,
    headers: { 'content-type': 'application/json', 'x-api-key': KEYS.carol, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({
      model: `${connection}/${MODEL}`,
      max_tokens: 8,
      messages: [{ role: 'user', content: 'x' }],
    }),
  }).catch(() => null);
  await upstream.waitForRequests(1);
  return async () => {
    controller.abort();
    await pending;
    await upstream.waitFor((u) => u.requests[0]?.aborted === true);
  };
}

/** Both accounts busy; a qtSd request waits; a2 frees first, then a1. Returns who served it. */
async function scenario(h: RunningLeeway, a1: FakeUpstream, a2: FakeUpstream): Promise<string | null> {
  const free1 = await hold(h, a1, 'a1');
  const free2 = await hold(h, a2, 'a2');
  const waiting = ask(h, 'alice', 'qtSd/fam');
  // Let the request reach its wait before anything frees.
  await new Promise((r) => setTimeout(r, 150));
  await free2();
  await new Promise((r) => setTimeout(r, 150));
  await free1();
  const res = await waiting;
  await res.text();
  expect(res.status).toBe(200);
  return res.headers.get('x-leeway-connection');
}

describe('quota-share per-connection concurrency', () => {
  it('CONC-3, CONC-5: quota-share dispatch waits for the slot of the account the scheduler chose instead of skipping it', async () => {
    const { a1, a2, h } = await family();
    // The scheduler's first pick over fresh equal accounts is a1; the request keeps waiting for a1
    // even when a2 frees first (a skip would have sent it to a2, the last candidate).
    expect(await scenario(h, a1, a2)).toBe('a1');
  });

  it('CONC-5: with quotaShareConcurrencyLimit disabled a busy account is skipped as for any combo (the last one is waited for)', async () => {
    const { a1, a2, h } = await family();
    await call(h, 'resilience.updateSettings', { quotaShareConcurrencyLimit: { enabled: false } });
    expect(await scenario(h, a1, a2)).toBe('a2');
  });
});
