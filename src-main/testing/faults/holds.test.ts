import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../../src-shared/domain/request-log';
import { comboCooldownWaitSchema } from '../../../src-shared/domain/resilience-combo-wait';
import { decideCooldownWait } from '../../resilience/cooldown-wait/wait-decision';
import { startFakeUpstream, type FakeUpstream } from '../fake-upstream';
import { anthropicConnection, startLeeway, type RunningLeeway } from '../start-leeway';

/*
 * Issue 21 §11 and §13 through the real proxy: a request no target can serve soon is answered at
 * once with when the first one can, a hold worth it says so, and what the client and Activity are
 * told about a held request is the whole truth (every attempt, the real status, the connection).
 */
const MODEL = 'claude-sonnet-4-6';
let a: FakeUpstream;
let b: FakeUpstream;
let h: RunningLeeway;

beforeAll(async () => {
  a = await startFakeUpstream({ format: 'anthropic', name: 'a' });
  b = await startFakeUpstream({ format: 'anthropic', name: 'b' });
  h = await startLeeway({
    connections: [
      anthropicConnection('a', a.url, { models: [MODEL], priority: 1 }),
      anthropicConnection('b', b.url, { models: [MODEL], priority: 2 }),
    ],
    combos: [
      {
        name: 'main',
        targets: [
          { connection: 'a', model: MODEL },
          { connection: 'b', model: MODEL },
        ],
      },
    ],
  });
});

afterAll(async () => {
  await h.stop();
  await a.close();
  await b.close();
});

afterEach(async () => {
  await h.core.router.call('cooldowns.clear', { target: 'all' });
});

function ask(stream: boolean, signal?: AbortSignal): Promise<Response> {
  return fetch(`${h.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': h.key, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'main', max_tokens: 8, stream, messages: [{ role: 'user', content: 'hi' }] }),
    ...(signal ? { signal } : {}),
  });
}

async function lastRow(after: number): Promise<RequestLogEntry> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const list = await h.core.router.call('activity.list', { limit: 1 });
    const row = (list.ok ? (list.value as RequestLogEntry[]) : [])[0];
    if (row && row.ts >= after) return row;
    if (Date.now() > deadline) throw new Error('no activity row');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const trail = (row: RequestLogEntry) => (row.attempts ?? []).map((x) => `${x.connection}=${x.status ?? '-'}`);
const short429 = { kind: 'status', status: 429, headers: { 'retry-after': '1' } } as const;
const long429 = { kind: 'status', status: 429, headers: { 'retry-after': '600' } } as const;

describe('held requests tell the whole story (issue 21 §13)', () => {
  it('issue 21 §13 CONC-7 PROD-16: a → b → a → b after a hold: the failover header and Activity keep the failure before the wait', async () => {
    const since = Date.now();
    a.enqueue(short429, { kind: 'status', status: 500 });
    b.enqueue(short429, { kind: 'ok', text: 'after the wait' });
    const res = await ask(false);
    await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('x-leeway-connection')).toBe('b');
    expect(res.headers.get('x-leeway-failover')).toBe('a=429, b=429, a=500');
    const row = await lastRow(since);
    expect(trail(row)).toEqual(['a=429', 'b=429', 'a=500', 'b=200']);
    expect(row.failover.map((f) => `${f.connection}=${f.status ?? '-'}`)).toEqual(['a=429', 'b=429', 'a=500']);
  }, 15_000);

  it('issue 21 §13 CONC-7: a held stream ends with comments naming the connection and the failover its early headers could not', async () => {
    const since = Date.now();
    a.enqueue(short429, { kind: 'status', status: 500 });
    b.enqueue(short429, { kind: 'ok', text: 'after the wait' });
    const res = await ask(true);
    const text = await res.text();
    expect(res.headers.get('x-leeway-held')).toBe('cooldown');
    expect(res.headers.get('x-leeway-connection')).toBeNull();
    const tail = text.slice(text.lastIndexOf('message_stop'));
    expect(tail).toContain(': x-leeway-connection: b\n');
    expect(tail).toContain(': x-leeway-failover: a=429, b=429, a=500\n');
    expect(tail).toMatch(/: x-leeway-held-ms: \d+\n/);
    const row = await lastRow(since);
    expect(row).toMatchObject({ connection: 'b', status: 200, errorCode: null });
    expect(trail(row)).toEqual(['a=429', 'b=429', 'a=500', 'b=200']);
  }, 15_000);

  it('issue 21 §13 CONC-7: a held stream that failed is no 200 in Activity: the row has the failure status and why', async () => {
    const since = Date.now();
    a.enqueue(short429, { kind: 'status', status: 500 });
    b.enqueue(short429, { kind: 'status', status: 500 });
    const res = await ask(true);
    const text = await res.text();
    expect(res.status).toBe(200); // the keep-alive went out first: the failure can only be an error event
    expect(text).toContain('event: error');
    expect(text).toContain(': x-leeway-failover: a=429, b=429, a=500\n');
    const row = await lastRow(since);
    expect(row.status).toBe(500);
    expect(row.errorCode).not.toBeNull();
    expect(trail(row)).toEqual(['a=429', 'b=429', 'a=500', 'b=500']);
  }, 15_000);
});

describe('no silent waits (issue 21 §11)', () => {
  it('issue 21 §11 CONC-8: every target rate-limited for longer than any wait: answered at once with the earliest reset, Retry-After, and no retry', async () => {
    a.enqueue(long429);
    b.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '300' } });
    const started = Date.now();
    const first = await ask(false);
    const body = (await first.json()) as { error: { message: string } };
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(first.status).toBe(429);
    expect(body.error.message).toMatch(
      /the earliest: b is free again at \d\d:\d\d:\d\d UTC \(in (4 min \d+ s|5 min)\)/,
    );
    expect(Number(first.headers.get('retry-after'))).toBeGreaterThan(280);
    expect(Number(first.headers.get('retry-after'))).toBeLessThanOrEqual(300);
    expect(first.headers.get('x-should-retry')).toBe('false');

    // The next request finds both cooling before it sends anything: the same words, at once.
    const second = await ask(true);
    const refused = (await second.json()) as { error: { message: string } };
    expect(second.status).toBe(503);
    expect(refused.error.message).toMatch(/The earliest: b is free again at \d\d:\d\d:\d\d UTC/);
    expect(second.headers.get('x-should-retry')).toBe('false');
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(280);
  });

  it('issue 21 §11 CONC-7: a hold worth it says so: a keep-alive comment naming the hold and its end, and a log line', async () => {
    a.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '60' } });
    b.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '45' } });
    const abort = new AbortController();
    const res = await ask(true, abort.signal);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-leeway-held')).toBe('cooldown');
    const reader = res.body?.getReader();
    const first = await reader?.read();
    const comment = new TextDecoder().decode(first?.value);
    expect(comment).toMatch(/^: leeway keep-alive \(waiting for b's cooldown to end at \d\d:\d\d:\d\d UTC\)/);
    abort.abort();
    await reader?.cancel().catch(() => undefined);
    expect(
      h.logs.some((l) =>
        /holding a request for "main": waiting for b's cooldown to end at .* \(4\d s, wait 1 of at most 5\)/.test(l),
      ),
    ).toBe(true);
  });

  it('issue 21 §11 CONC-8: the defaults cover a per-minute limit: a 60 s reset is waited for, within a 300 s budget', () => {
    const defaults = comboCooldownWaitSchema.parse({});
    expect(defaults).toMatchObject({ enabled: true, maxWaitMs: 90_000, budgetMs: 300_000 });
    const now = 1_000_000;
    const minute = [
      {
        connection: 'a',
        model: MODEL,
        reason: 'unavailable' as const,
        cause: 'rate_limit_exceeded',
        until: now + 60_000,
      },
    ];
    expect(decideCooldownWait(minute, { waits: 0, heldMs: 0 }, defaults, now).kind).toBe('wait');
  });
});
