import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startAdminHarness, TEST_TOKEN, type AdminHarness } from '../testing/admin-harness';

/** Reads an SSE response until `needle` shows up, returning everything read so far. */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, needle: string, seen = ''): Promise<string> {
  const decoder = new TextDecoder();
  let text = seen;
  while (!text.includes(needle)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`stream ended before "${needle}"; got: ${text}`);
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

function readerOf(res: Response): ReadableStreamDefaultReader<Uint8Array> {
  if (!res.body) throw new Error('response has no body');
  return res.body.getReader();
}

async function waitFor(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('admin HTTP door: server-sent events', () => {
  let h: AdminHarness;
  beforeEach(async () => {
    h = await startAdminHarness({ keepAliveMs: 30 });
  });
  afterEach(() => h.close());

  const open = (signal?: AbortSignal) =>
    fetch(`${h.base}/api/events`, {
      headers: { cookie: `leeway_token=${TEST_TOKEN}` },
      ...(signal ? { signal } : {}),
    });

  it('PROD-9 refuses the event stream without a token', async () => {
    const res = await fetch(`${h.base}/api/events`);
    expect(res.status).toBe(401);
    expect(h.events.listenerCount()).toBe(0);
  });

  it('PROD-8 delivers an emitted core event as `event: <type>` with a JSON data line', async () => {
    const res = await open();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = readerOf(res);
    await readUntil(reader, ': connected');
    h.events.emit('app.paused', { paused: true });
    await readUntil(reader, 'event: app.paused\ndata: {"paused":true}\n\n');
    await reader.cancel();
  });

  it('PROD-8 sends keep-alive comments while idle', async () => {
    const reader = readerOf(await open());
    await readUntil(reader, ': keep-alive\n\n');
    await reader.cancel();
  });

  it('PROD-8 unsubscribes from the bus when the client leaves', async () => {
    const controller = new AbortController();
    const reader = readerOf(await open(controller.signal));
    await readUntil(reader, ': connected');
    expect(h.events.listenerCount()).toBe(1);
    controller.abort();
    await waitFor(() => h.events.listenerCount() === 0);
  });

  it('PROD-8 closeAll ends every open stream and drops its subscription', async () => {
    const readers = await Promise.all([open(), open()].map(async (p) => readerOf(await p)));
    for (const reader of readers) await readUntil(reader, ': connected');
    expect(h.events.listenerCount()).toBe(2);
    h.admin.closeAll();
    for (const reader of readers)
      expect(await readUntil(reader, '\0').catch((e: Error) => e.message)).toContain('stream ended');
    expect(h.events.listenerCount()).toBe(0);
  });
});
