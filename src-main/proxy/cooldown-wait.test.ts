import { afterEach, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../src-shared/domain/request-log';
import { call, createScene, send } from '../resilience/resilience-it.testkit';
import type { FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, type RunningLeeway } from '../testing/start-leeway';

const MODEL = 'claude-sonnet-4-5';
const scene = createScene();
afterEach(() => scene.cleanup());

function ask(h: RunningLeeway, stream: boolean, signal?: AbortSignal): Promise<Response> {
  return fetch(`${h.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': h.key, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: MODEL, max_tokens: 16, stream, messages: [{ role: 'user', content: 'hi' }] }),
    ...(signal ? { signal } : {}),
  });
}

async function onlyTarget(): Promise<{ h: RunningLeeway; only: FakeUpstream }> {
  const only = await scene.fake('only');
  const h = await scene.start({ connections: [anthropicConnection('only', only.url, { models: [MODEL] })] });
  return { h, only };
}

const limited = (seconds: number) => ({
  kind: 'status' as const,
  status: 429,
  headers: { 'retry-after': String(seconds) },
});

async function rows(h: RunningLeeway): Promise<RequestLogEntry[]> {
  return call(h, 'activity.list', { limit: 50 });
}

/** Polls the activity log until a row matches (rows are written when a request ends). */
async function rowWhere(h: RunningLeeway, match: (r: RequestLogEntry) => boolean, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = (await rows(h)).find(match);
    if (row) return row;
    if (Date.now() > deadline) throw new Error('no matching activity row');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('combo cooldown wait (CONC-7..9)', () => {
  it('CONC-7: a 2 s retry-after on the only target is waited out and served (non-stream), and says it was held', async () => {
    const { h, only } = await onlyTarget();
    only.enqueue(limited(2));
    const res = await send(ask(h, false));
    expect(res.status).toBe(200);
    expect(res.json.type).toBe('message');
    expect(res.headers.get('x-leeway-held')).toBe('cooldown');
    expect(Number(res.headers.get('x-leeway-held-ms'))).toBeGreaterThanOrEqual(1_500);
    expect(only.requests).toHaveLength(2);
    const row = await rowWhere(h, (r) => r.status === 200);
    expect(row.heldMs).toBeGreaterThanOrEqual(1_500);
  }, 20_000);

  it('CONC-7: a streaming client gets 200 and keep-alive comments while held, then the stream', async () => {
    const { h, only } = await onlyTarget();
    only.enqueue(limited(2));
    const res = await ask(h, true);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    expect(res.headers.get('x-leeway-held')).toBe('cooldown');
    const text = await res.text();
    expect(text).toMatch(/^: leeway keep-alive \(waiting for only's cooldown to end at \d\d:\d\d:\d\d UTC\)/);
    expect(text).toMatch(/: leeway held \d+ ms \(cooldown\)/);
    expect(text).toContain('event: message_stop');
    expect(only.requests).toHaveLength(2);
    const row = await rowWhere(h, (r) => r.stream && r.status === 200);
    expect(row.heldMs).toBeGreaterThanOrEqual(1_500);
  }, 20_000);

  it('CONC-7: a stream held once and limited again is held again (the opened stream keeps waiting), then served', async () => {
    const { h, only } = await onlyTarget();
    only.enqueue(limited(1), limited(1));
    const res = await ask(h, true);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.match(/: leeway held \d+ ms \(cooldown\)/g)).toHaveLength(2);
    expect(text).toContain('event: message_stop');
    expect(only.requests).toHaveLength(3);
  }, 20_000);

  it('CONC-7: a stream held and then refused ends with an SSE error event in the client format, not a broken socket', async () => {
    const { h, only } = await onlyTarget();
    only.enqueue(limited(1), { kind: 'status', status: 401 });
    const res = await ask(h, true);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain(': leeway keep-alive');
    expect(text).toMatch(
      /event: error\ndata: \{"type":"error","error":\{"type":"api_error","message":"only answered 401/,
    );
    expect(only.requests).toHaveLength(2);
    const row = await rowWhere(h, (r) => r.stream);
    expect(row.errorCode).toBe('auth_error');
    expect(row.heldMs).toBeGreaterThanOrEqual(500);
  }, 20_000);

  it('CONC-7: both targets of a 2-model combo rate limited: the request waits for the first back and is served', async () => {
    const a = await scene.fake('a');
    const b = await scene.fake('b');
    const h = await scene.start({
      connections: [
        anthropicConnection('a', a.url, { models: [MODEL], priority: 1 }),
        anthropicConnection('b', b.url, { models: ['claude-haiku-4-5'], priority: 2 }),
      ],
      combos: [
        {
          name: 'pair',
          targets: [
            { connection: 'a', model: MODEL },
            { connection: 'b', model: 'claude-haiku-4-5' },
          ],
        },
      ],
    });
    a.enqueue(limited(20));
    b.enqueue(limited(1));
    const res = await send(
      fetch(`${h.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': h.key, 'anthropic-version': '2023-06-01' },
        body: JSON.stringify({ model: 'pair', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('x-leeway-connection')).toBe('b');
    expect(res.headers.get('x-leeway-held')).toBe('cooldown');
    expect(a.requests).toHaveLength(1);
    expect(b.requests).toHaveLength(2);
  }, 20_000);

  it('CONC-7: a target already cooling when the request arrives is waited for too (the plan found nothing runnable)', async () => {
    const { h, only } = await onlyTarget();
    await call(h, 'resilience.updateSettings', { comboCooldownWait: { enabled: false } });
    only.enqueue(limited(2));
    expect((await send(ask(h, false))).status).toBe(429);
    await call(h, 'resilience.updateSettings', { comboCooldownWait: { enabled: true } });
    const res = await send(ask(h, false));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-leeway-held')).toBe('cooldown');
    expect(only.requests).toHaveLength(2);
  }, 20_000);

  it('CONC-8: a 429 with retry-after 120 (over maxWaitMs) is answered at once, not held', async () => {
    const { h, only } = await onlyTarget();
    only.enqueue(limited(120));
    const res = await send(ask(h, false));
    expect(res.status).toBe(429);
    expect(res.headers.get('x-leeway-held')).toBeNull();
    expect(only.requests).toHaveLength(1);
    // The next request meets the long cooldown in the plan: a 503 at once, still not held.
    const next = await send(ask(h, true));
    expect(next.status).toBe(503);
    expect(next.json.leeway?.code).toBe('all_targets_cooling_down');
    const row = await rowWhere(h, (r) => r.status === 429);
    expect(row.heldMs ?? null).toBeNull();
  }, 20_000);

  it('CONC-8: held once, then limited for longer than maxWaitMs: the 429 goes out and still says how long it was held', async () => {
    const { h, only } = await onlyTarget();
    only.enqueue(limited(1), limited(120));
    const res = await send(ask(h, false));
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('120');
    expect(res.headers.get('x-leeway-held')).toBe('cooldown');
    expect(Number(res.headers.get('x-leeway-held-ms'))).toBeGreaterThanOrEqual(500);
    expect(only.requests).toHaveLength(2);
  }, 20_000);

  it('CONC-9: a 401 on the only target is never waited for', async () => {
    const { h, only } = await onlyTarget();
    only.enqueue({ kind: 'status', status: 401, headers: { 'retry-after': '1' } });
    const res = await send(ask(h, false));
    expect(res.status).toBe(401);
    expect(res.headers.get('x-leeway-held')).toBeNull();
    expect(only.requests).toHaveLength(1);
  }, 20_000);

  it('CONC-7: a client that leaves while held cancels the wait; nothing more is sent upstream', async () => {
    const { h, only } = await onlyTarget();
    only.enqueue(limited(20));
    const controller = new AbortController();
    const res = await ask(h, true, controller.signal);
    expect(res.status).toBe(200);
    const reader = res.body?.getReader();
    if (!reader) throw new Error('no body');
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('leeway keep-alive');
    controller.abort();
    // Logged as the client leaving, with a held time far below the 20 s the wait would have taken.
    const row = await rowWhere(h, (r) => r.errorCode === 'client_closed');
    expect(row.heldMs).toBeLessThan(15_000);
    expect(only.requests).toHaveLength(1);
  }, 20_000);

  it('CONC-8: with the wait switched off, a 2 s retry-after is answered at once as before', async () => {
    const { h, only } = await onlyTarget();
    await call(h, 'resilience.updateSettings', { comboCooldownWait: { enabled: false } });
    only.enqueue(limited(2));
    const res = await send(ask(h, true));
    expect(res.status).toBe(429);
    expect(res.headers.get('x-leeway-held')).toBeNull();
    expect(only.requests).toHaveLength(1);
  }, 20_000);
});
