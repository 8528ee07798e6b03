import { afterEach, describe, expect, it } from 'vitest';
import { reservePort, startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';

let upstreams: FakeUpstream[] = [];
let leeway: RunningLeeway | null = null;

afterEach(async () => {
  await leeway?.stop();
  leeway = null;
  await Promise.all(upstreams.map((u) => u.close()));
  upstreams = [];
});

async function twoUpstreams(firstUrl?: string) {
  const first = await startFakeUpstream({ format: 'anthropic', name: 'first' });
  const second = await startFakeUpstream({ format: 'anthropic', name: 'second' });
  upstreams.push(first, second);
  leeway = await startLeeway({
    connections: [
      anthropicConnection('primary', firstUrl ?? first.url, { priority: 1 }),
      anthropicConnection('backup', second.url, { priority: 2 }),
    ],
    combos: [{ name: 'main', targets: ['primary', { connection: 'backup', model: 'claude-haiku-4-5' }] }],
  });
  await leeway.core.router.call('settings.update', { streamHeadersTimeoutMs: 1_000, responseTimeoutMs: 1_000 });
  return { first, second, h: leeway };
}

function ask(h: RunningLeeway, body: Record<string, unknown>) {
  return fetch(`${h.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': h.key, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ max_tokens: 16, messages: [{ role: 'user', content: 'hi' }], ...body }),
  });
}

describe('failover before the first byte', () => {
  for (const status of [429, 500, 529]) {
    it(`PROD-16: a ${status} from the first target is served by the next, and the response says so`, async () => {
      const { first, second, h } = await twoUpstreams();
      first.enqueue({ kind: 'status', status, headers: { 'retry-after': '30' } });
      const res = await ask(h, { model: 'main' });
      const text = await res.text();
      expect(res.status).toBe(200);
      expect(res.headers.get('x-leeway-connection')).toBe('backup');
      expect(res.headers.get('x-leeway-failover')).toBe(`primary=${status}`);
      expect(text).toBe(second.requests[0]?.response?.body);
      // The combo pins the backup to its own model; the primary got the combo's pinned fallback.
      expect((second.requests[0]?.json as { model: string }).model).toBe('claude-haiku-4-5');
      expect((first.requests[0]?.json as { model: string }).model).toBe('claude-haiku-4-5');
    });
  }

  it('PROD-16: a timeout before response headers fails over to the next target', async () => {
    const { first, h } = await twoUpstreams();
    first.enqueue({ kind: 'hang' });
    const started = Date.now();
    const res = await ask(h, { model: 'main', stream: true });
    await res.text();
    expect(res.headers.get('x-leeway-connection')).toBe('backup');
    expect(res.headers.get('x-leeway-failover')).toBe('primary=timeout');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('PROD-16: a refused connection fails over to the next target', async () => {
    const dead = `http://127.0.0.1:${await reservePort()}`;
    const { h } = await twoUpstreams(dead);
    const res = await ask(h, { model: 'main' });
    await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('x-leeway-failover')).toBe('primary=unreachable');
  });

  it('PROD-16: after the last target fails the client gets its status and body unchanged', async () => {
    const { first, second, h } = await twoUpstreams();
    first.enqueue({ kind: 'status', status: 500 });
    second.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '17' } });
    const res = await ask(h, { model: 'main' });
    const text = await res.text();
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('17');
    expect(text).toBe(second.requests[0]?.response?.body);
    expect(res.headers.get('x-leeway-failover')).toBe('primary=500');
  });

  it("PROD-16: a 400 is the request's fault and is relayed without trying the next target", async () => {
    const { first, second, h } = await twoUpstreams();
    first.enqueue({ kind: 'status', status: 400 });
    const res = await ask(h, { model: 'main' });
    await res.text();
    expect(res.status).toBe(400);
    expect(second.requests).toHaveLength(0);
  });

  it('PROD-16: no failover after the first byte; the stream ends with an error event', async () => {
    const { first, second, h } = await twoUpstreams();
    first.enqueue({ kind: 'stream-then-drop', events: 3 });
    const res = await ask(h, { model: 'main', stream: true });
    const text = await res.text();
    expect(res.headers.get('x-leeway-connection')).toBe('primary');
    expect(text.startsWith(first.requests[0]?.response?.body ?? '<none>')).toBe(true);
    expect(text).toContain('event: error');
    expect(second.requests).toHaveLength(0);
  });

  it('PROD-10: count_tokens 404 upstream moves on without calling it a failure', async () => {
    const { first, h } = await twoUpstreams();
    first.enqueue({ kind: 'status', status: 404 });
    const res = await fetch(`${h.url}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': h.key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'main', messages: [{ role: 'user', content: 'hi' }] }),
    });
    const body = (await res.json()) as { input_tokens: number };
    expect(res.status).toBe(200);
    expect(body.input_tokens).toBeGreaterThan(0);
    expect(res.headers.get('x-leeway-failover')).toBe('primary=404');
  });

  it('PROD-10: a client that leaves mid-stream closes the upstream request at once', async () => {
    const { first, h } = await twoUpstreams();
    first.enqueue({ kind: 'slow-stream', intervalMs: 50, deltas: 200 });
    const res = await ask(h, { model: 'main', stream: true });
    const reader = res.body?.getReader();
    await reader?.read();
    await reader?.cancel();
    await first.waitFor((u) => u.requests[0]?.aborted === true, 3_000);
    expect(first.requests[0]?.aborted).toBe(true);
    expect(first.requests[0]?.response?.complete).toBe(false);
  });
});
