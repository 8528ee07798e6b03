import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from './fake-upstream';

/* The fake's answers that look like success and are not: what the proxy's integrity checks are tested against. */
const started: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((u) => u.close()));
});

async function start(format: 'anthropic' | 'openai' = 'anthropic'): Promise<FakeUpstream> {
  const upstream = await startFakeUpstream({ format, name: 'm' });
  started.push(upstream);
  return upstream;
}

const post = (up: FakeUpstream, stream: boolean) =>
  request(`${up.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'sk-ant-echo-me-0001' },
    body: JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 8, stream, messages: [] }),
  });

describe('fake upstream misbehaviours after the headers', () => {
  it('reset-after-headers sends 200 headers, then resets before any body byte', async () => {
    const up = await start();
    up.enqueue({ kind: 'reset-after-headers' });
    const res = await post(up, true);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/event-stream');
    await expect(res.body.text()).rejects.toThrow();
    expect(up.requests[0]?.response?.body).toBe('');
  });

  it('stall-after-headers sends the status line of the given status and no body', async () => {
    const up = await start();
    up.enqueue({ kind: 'stall-after-headers', status: 500 });
    const res = await post(up, false);
    expect(res.statusCode).toBe(500);
    const first = await Promise.race([
      res.body.text(),
      new Promise((resolve) => setTimeout(() => resolve('silent'), 150)),
    ]);
    expect(first).toBe('silent');
    res.body.destroy();
  });

  it('malformed-ok answers 200 with an empty body, a cut JSON object, or a stream without its terminal event', async () => {
    const up = await start();
    up.enqueue(
      { kind: 'malformed-ok', shape: 'empty' },
      { kind: 'malformed-ok', shape: 'invalid-json' },
      { kind: 'malformed-ok', shape: 'unterminated' },
    );
    const empty = await post(up, false);
    expect([empty.statusCode, await empty.body.text()]).toEqual([200, '']);
    const cut = await post(up, false);
    const text = await cut.body.text();
    expect(cut.headers['content-type']).toBe('application/json');
    expect(() => JSON.parse(text) as unknown).toThrow();
    const stream = await (await post(up, true)).body.text();
    expect(stream).toContain('event: message_delta');
    expect(stream).not.toContain('message_stop');
  });

  it('status with echoKey puts the credential the request carried into the error message', async () => {
    const up = await start();
    up.enqueue({ kind: 'status', status: 401, echoKey: true });
    const res = await post(up, false);
    expect(await res.body.json()).toMatchObject({ error: { message: 'Invalid credential: sk-ant-echo-me-0001' } });
  });
});
