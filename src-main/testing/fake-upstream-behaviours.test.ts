import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { reservePort, startFakeUpstream, type FakeUpstream } from './fake-upstream';

const started: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((u) => u.close()));
});

async function start(format: 'anthropic' | 'openai' = 'anthropic'): Promise<FakeUpstream> {
  const upstream = await startFakeUpstream({ format, name: 'b' });
  started.push(upstream);
  return upstream;
}

const headers = { 'content-type': 'application/json', 'x-api-key': 'k', authorization: 'Bearer k' };
const body = (stream: boolean): string =>
  JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 8, stream, messages: [{ role: 'user', content: 'hi' }] });
const postMessages = (up: FakeUpstream, stream = false, signal?: AbortSignal): Promise<Response> =>
  fetch(`${up.url}/v1/messages`, { method: 'POST', headers, body: body(stream), ...(signal ? { signal } : {}) });

describe('fake upstream behaviours', () => {
  it('status 429 sends the rate_limit_error envelope and the given retry-after', async () => {
    const up = await start();
    up.enqueue({
      kind: 'status',
      status: 429,
      headers: { 'retry-after': '7' },
    });
    const res = await postMessages(up);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(res.headers.get('request-id')).toBe('req_b_1');
    expect(await res.json()).toMatchObject({
      type: 'error',
      error: {
        type: 'rate_limit_error',
        message: expect.any(String) as string,
      },
    });
  });

  it('status 529 and 500 map to overloaded_error and api_error; a string body is sent verbatim', async () => {
    const up = await start();
    up.enqueue(
      { kind: 'status', status: 529 },
      { kind: 'status', status: 500 },
      { kind: 'status', status: 503, body: 'upstream connect error' },
    );
    expect(await (await postMessages(up)).json()).toMatchObject({
      error: { type: 'overloaded_error' },
    });
    expect(await (await postMessages(up)).json()).toMatchObject({
      error: { type: 'api_error' },
    });
    expect(await (await postMessages(up)).text()).toBe('upstream connect error');
  });

  it('OpenAI 429 uses the {error:{message,type,param,code}} shape', async () => {
    const up = await start('openai');
    up.enqueue({ kind: 'status', status: 429 });
    const res = await fetch(`${up.url}/v1/chat/completions`, {
      method: 'POST',
      headers,
      body: '{"model":"gpt-4o"}',
    });
    expect(await res.json()).toEqual({
      error: {
        message: expect.any(String) as string,
        type: 'requests',
        param: null,
        code: 'rate_limit_exceeded',
      },
    });
  });

  it('runs queued behaviours first-in first-out, then the default, which setDefault changes', async () => {
    const up = await start();
    up.enqueue({ kind: 'status', status: 500 }, { kind: 'status', status: 429 });
    up.setDefault({ kind: 'status', status: 529 });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await postMessages(up)).status);
    expect(statuses).toEqual([500, 429, 529]);
  });

  it('delay waits before answering normally', async () => {
    const up = await start();
    up.enqueue({ kind: 'delay', ms: 120 });
    const begin = Date.now();
    const res = await postMessages(up);
    expect(res.status).toBe(200);
    expect(Date.now() - begin).toBeGreaterThanOrEqual(100);
  });

  it('hang never answers, and close() still ends promptly and fails the pending client', async () => {
    const up = await start();
    up.enqueue({ kind: 'hang' });
    const pending = postMessages(up).then(
      () => 'answered',
      () => 'failed',
    );
    await up.waitForRequests(1);
    const begin = Date.now();
    await up.close();
    expect(await pending).toBe('failed');
    expect(Date.now() - begin).toBeLessThan(1000);
    expect(up.requests[0]?.aborted).toBe(false);
    expect(up.sockets.open()).toBe(0);
  });

  it('counts sockets: keep-alive reuses one, closing the client closes it', async () => {
    const up = await start();
    const agent = new Agent({ connections: 1 });
    for (let i = 0; i < 2; i++) {
      const res = await request(`${up.url}/v1/messages`, {
        method: 'POST',
        headers,
        body: body(false),
        dispatcher: agent,
      });
      await res.body.text();
    }
    expect(up.sockets.opened).toBe(1);
    expect(up.sockets.open()).toBe(1);
    await agent.close();
    await up.waitFor((u) => u.sockets.closed === 1);
    expect(up.sockets.open()).toBe(0);
  });

  it('reservePort gives a port where connections are refused', async () => {
    const port = await reservePort();
    const error = await fetch(`http://127.0.0.1:${port}/v1/messages`).then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as { cause?: { code?: string } } | null)?.cause?.code).toBe('ECONNREFUSED');
  });
});
