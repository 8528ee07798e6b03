import { afterEach, describe, expect, it } from 'vitest';
import type { RequestQueueView } from '../../src-shared/domain/request-queue-view';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, type RunningLeeway } from '../testing/start-leeway';
import { ask, call, KEYS, startQuotaLeeway } from './quota.testkit';

/*
 * CONC-4 asks the qsconn semaphore to fail open: a full queue or a timed-out wait lets the request go
 * out without a slot. Leeway keeps the fail-open where it sends nothing extra to a busy account — a
 * full queue on the scheduler's pick moves the request on to the next account — and refuses on the
 * last one, because QUEUE-3/QUEUE-8 say a request over those budgets is never sent (see
 * resilience/queue/README.md: sending without a slot would release the very burst the limit holds).
 */

let upstreams: FakeUpstream[] = [];
let leeway: RunningLeeway | null = null;
afterEach(async () => {
  await leeway?.stop();
  leeway = null;
  await Promise.all(upstreams.map((u) => u.close()));
  upstreams = [];
});

const MODEL = 'claude-sonnet-4-5';

/** Two shared accounts, one request at a time each, pooled as qtSd/fam; `overrides` per account. */
async function family(overrides: { a1?: object; a2?: object }) {
  const a1 = await startFakeUpstream({ format: 'anthropic', name: 'a1' });
  const a2 = await startFakeUpstream({ format: 'anthropic', name: 'a2' });
  upstreams.push(a1, a2);
  const account = (name: string, url: string, rateLimitOverrides: object | undefined) =>
    anthropicConnection(name, url, {
      models: [MODEL],
      maxConcurrent: 1,
      ...(rateLimitOverrides ? { rateLimitOverrides } : {}),
    });
  const h = (leeway = await startQuotaLeeway(
    { connections: [account('a1', a1.url, overrides.a1), account('a2', a2.url, overrides.a2)] },
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

/** A request as carol (outside the pool) straight to one account; abort() ends it. */
function direct(h: RunningLeeway, connection: string) {
  const controller = new AbortController();
  const done = fetch(`${h.url}/v1/messages`, {
    method: 'POST',
    signal: controller.signal,
    headers: { 'content-type': 'application/json', 'x-api-key': KEYS.carol, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({
      model: `${connection}/${MODEL}`,
      max_tokens: 8,
      messages: [{ role: 'user', content: 'x' }],
    }),
  })
    .then((res) => res.text())
    .catch(() => null);
  return { abort: () => controller.abort(), done };
}

async function queued(h: RunningLeeway, connection: string): Promise<number> {
  const rows: RequestQueueView[] = await call(h, 'queues.list', undefined);
  return rows.find((r) => r.connection === connection)?.queued ?? 0;
}

async function untilQueued(h: RunningLeeway, connection: string, n: number): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if ((await queued(h, connection)) === n) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${connection} never had ${n} waiting`);
}

/** The account's only slot taken by a request its upstream never answers. */
async function hold(h: RunningLeeway, upstream: FakeUpstream, connection: string) {
  upstream.enqueue({ kind: 'hang' });
  const held = direct(h, connection);
  await upstream.waitForRequests(upstream.requests.length + 1);
  return held;
}

describe('quota-share semaphore: fail open (CONC-4) within the request-queue budgets', () => {
  it('CONC-4: a full queue on the scheduler’s first pick does not reject the request: it goes on to the next account', async () => {
    const { a1, a2, h } = await family({ a1: { maxQueueDepth: 1 } });
    const busy1 = await hold(h, a1, 'a1');
    // One more waiter fills a1's queue (depth 1).
    const waiter = direct(h, 'a1');
    await untilQueued(h, 'a1', 1);
    const busy2 = await hold(h, a2, 'a2');

    // Both busy and fresh to the scheduler: it picks a1 first (as in the CONC-3 test), whose queue is full.
    const pending = ask(h, 'alice', 'qtSd/fam');
    await untilQueued(h, 'a2', 1);
    busy2.abort();
    const res = await pending;
    await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('x-leeway-connection')).toBe('a2');
    // a1 is still held: the request never waited there and never reached it.
    expect(a1.requests).toHaveLength(1);
    expect(await queued(h, 'a1')).toBe(1);
    busy1.abort();
    await Promise.all([busy1.done, busy2.done, waiter.done]);
  });

  it('CONC-4 (Leeway: QUEUE-3/8 win on the last account): a full queue there is refused with 429, a wait past maxWaitMs with 503; neither is sent', async () => {
    const { a1, a2, h } = await family({ a1: { maxQueueDepth: 1 }, a2: { maxQueueDepth: 1, maxWaitMs: 400 } });
    const busy1 = await hold(h, a1, 'a1');
    const waiter = direct(h, 'a1');
    await untilQueued(h, 'a1', 1);
    const busy2 = await hold(h, a2, 'a2');

    // The first request skips a1 (full) and waits in a2's queue, filling it...
    const timedOut = ask(h, 'alice', 'qtSd/fam');
    await untilQueued(h, 'a2', 1);
    // ...so the next finds both queues full: refused at once.
    const full = await ask(h, 'alice', 'qtSd/fam');
    expect(full.status).toBe(429);
    expect(await full.text()).toContain('RATE_LIMIT_QUEUE_FULL');
    const late = await timedOut;
    expect(late.status).toBe(503);
    expect(await late.text()).toContain('RATE_LIMIT_QUEUE_TIMEOUT');
    // Only the two holds ever reached the accounts.
    expect([a1.requests.length, a2.requests.length]).toEqual([1, 1]);
    busy1.abort();
    busy2.abort();
    await Promise.all([busy1.done, busy2.done, waiter.done]);
  });
});
