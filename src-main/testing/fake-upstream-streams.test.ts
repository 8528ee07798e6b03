import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from './fake-upstream';

const started: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((u) => u.close()));
});

async function start(): Promise<FakeUpstream> {
  const upstream = await startFakeUpstream({ format: 'anthropic', name: 'b' });
  started.push(upstream);
  return upstream;
}

const headers = { 'content-type': 'application/json', 'x-api-key': 'k', authorization: 'Bearer k' };
const body = (stream: boolean): string =>
  JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 8, stream, messages: [{ role: 'user', content: 'hi' }] });
const postMessages = (up: FakeUpstream, stream = false, signal?: AbortSignal): Promise<Response> =>
  fetch(`${up.url}/v1/messages`, { method: 'POST', headers, body: body(stream), ...(signal ? { signal } : {}) });

/** Reads a body to its end or its failure, keeping what arrived before a failure. */
async function readAll(res: Response): Promise<{ text: string; failed: boolean }> {
  if (!res.body) return { text: '', failed: false };
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text, failed: false };
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    return { text, failed: true };
  }
}

describe('fake upstream stream behaviours', () => {
  it('stream-then-drop sends the first N frames then kills the connection', async () => {
    const up = await start();
    up.enqueue({ kind: 'stream-then-drop', events: 3 });
    const res = await postMessages(up, true);
    expect(res.status).toBe(200);
    const { text, failed } = await readAll(res);
    expect(failed).toBe(true);
    expect(text.match(/^event: /gm)).toHaveLength(3);
    expect(text).toBe(up.requests[0]?.response?.body);
    expect(up.requests[0]?.response?.complete).toBe(false);
    expect(up.requests[0]?.aborted).toBe(false);
  });

  it('stream-then-drop on a non-stream request leaves a truncated JSON body', async () => {
    const up = await start();
    up.enqueue({ kind: 'stream-then-drop', events: 1 });
    const { text, failed } = await readAll(await postMessages(up));
    expect(failed).toBe(true);
    expect(() => JSON.parse(text) as unknown).toThrow();
  });

  it('stream-error sends some frames then an in-band error event', async () => {
    const up = await start();
    up.enqueue({ kind: 'stream-error', after: 2 });
    const text = await (await postMessages(up, true)).text();
    expect(text.match(/^event: \S+/gm)).toEqual(['event: message_start', 'event: content_block_start', 'event: error']);
    expect(text).toContain('"type":"overloaded_error"');
  });

  it('slow-stream paces every frame by intervalMs', async () => {
    const up = await start();
    up.enqueue({ kind: 'slow-stream', deltas: 10, intervalMs: 10 });
    const begin = Date.now();
    const text = await (await postMessages(up, true)).text();
    expect(Date.now() - begin).toBeGreaterThanOrEqual(150);
    expect(text.match(/^event: content_block_delta$/gm)).toHaveLength(10);
    expect(text.endsWith('event: message_stop\ndata: {"type":"message_stop"}\n\n')).toBe(true);
  });

  it('sets aborted when the client aborts mid-stream, and stops writing', async () => {
    const up = await start();
    up.enqueue({ kind: 'slow-stream', intervalMs: 20 });
    const controller = new AbortController();
    const res = await postMessages(up, true, controller.signal);
    const reader = res.body?.getReader();
    await reader?.read();
    controller.abort();
    await up.waitFor((u) => u.requests[0]?.aborted === true);
    const written = up.requests[0]?.response?.body.length;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(up.requests[0]?.response?.body.length).toBe(written);
    expect(up.requests[0]?.response?.complete).toBe(false);
  });
});
