import { afterEach, describe, expect, it } from 'vitest';
import type { HeldRequestView } from '../../src-shared/domain/held';
import type { RequestLogEntry } from '../../src-shared/domain/request-log';
import { call, callRaw, createScene, send, until } from '../resilience/resilience-it.testkit';
import { anthropicConnection, type RunningLeeway } from '../testing/start-leeway';

const MODEL = 'claude-sonnet-4-5';
const scene = createScene();
afterEach(() => scene.cleanup());

function ask(h: RunningLeeway, stream: boolean, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${h.url}/v1/messages`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': h.key,
      'anthropic-version': '2023-06-01',
      ...headers,
    },
    body: JSON.stringify({ model: MODEL, max_tokens: 16, stream, messages: [{ role: 'user', content: 'hi' }] }),
  });
}

const limited = (seconds: number) => ({
  kind: 'status' as const,
  status: 429,
  headers: { 'retry-after': String(seconds) },
});

/** Reads until a value turns up (rows and holds appear as requests move). */
async function poll<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const firstHeld = (h: RunningLeeway): Promise<HeldRequestView> =>
  poll(async () => (await call(h, 'held.list', undefined))[0], 'a held request');

const rowWhere = (h: RunningLeeway, match: (r: RequestLogEntry) => boolean): Promise<RequestLogEntry> =>
  poll(async () => (await call(h, 'activity.list', { limit: 20 })).find(match), 'an activity row');

describe('held requests you can act on (issue 24 §2)', () => {
  it('ISSUE-24 CONC-7: a request held for a cooldown is listed live with key, model, session, what it waits for and until when; cancel answers the client at once with a typed 409', async () => {
    const only = await scene.fake('only');
    const h = await scene.start({ connections: [anthropicConnection('only', only.url, { models: [MODEL] })] });
    only.enqueue(limited(30));
    const pending = send(ask(h, false, { 'x-claude-code-session-id': 'sess-1' }));
    const held = await firstHeld(h);
    expect(held).toMatchObject({ model: MODEL, session: 'sess-1', stream: false, waitsFor: 'cooldown' });
    expect(held.keyName).toBeTruthy();
    expect(held.what).toMatch(/only's cooldown to end at \d\d:\d\d:\d\d/);
    expect(held.until).toBeGreaterThan(Date.now() + 20_000);
    expect(held.actions).toEqual(['cancel', 'go-now', 'release-lease']);

    const cancelledAt = Date.now();
    expect(await call(h, 'held.act', { id: held.id, action: 'cancel' })).toEqual({ done: true });
    const res = await pending;
    expect(Date.now() - cancelledAt).toBeLessThan(2_000);
    expect(res.status).toBe(409);
    expect(res.headers.get('x-should-retry')).toBe('false');
    expect(res.json).toMatchObject({
      type: 'error',
      error: { message: expect.stringContaining('Cancelled in Leeway') },
    });
    expect(await call(h, 'held.list', undefined)).toEqual([]);
    const row = await rowWhere(h, (r) => r.errorCode === 'request_cancelled');
    expect(row.status).toBe(409);
    expect(only.requests).toHaveLength(1);
  }, 20_000);

  it('ISSUE-24: a held stream (200 and keep-alives already sent) ends with an error event saying it was cancelled', async () => {
    const only = await scene.fake('only');
    const h = await scene.start({ connections: [anthropicConnection('only', only.url, { models: [MODEL] })] });
    only.enqueue(limited(30));
    const res = await ask(h, true);
    expect(res.status).toBe(200);
    const held = await firstHeld(h);
    expect(held.stream).toBe(true);
    await call(h, 'held.act', { id: held.id, action: 'cancel' });
    const text = await res.text();
    expect(text).toContain(': leeway keep-alive (waiting for only');
    expect(text).toMatch(
      /event: error\ndata: \{"type":"error","error":\{"type":"[a-z_]+","message":"Cancelled in Leeway/,
    );
  }, 20_000);

  it('ISSUE-24: "use any connection now" skips the wait: the cooling connection is tried at once and serves', async () => {
    const only = await scene.fake('only');
    const h = await scene.start({ connections: [anthropicConnection('only', only.url, { models: [MODEL] })] });
    only.enqueue(limited(30));
    const pending = send(ask(h, false));
    const held = await firstHeld(h);
    const at = Date.now();
    await call(h, 'held.act', { id: held.id, action: 'go-now' });
    const res = await pending;
    expect(Date.now() - at).toBeLessThan(3_000);
    expect(res.status).toBe(200);
    expect(res.json.type).toBe('message');
    expect(only.requests).toHaveLength(2);
    expect(await call(h, 'held.list', undefined)).toEqual([]);
  }, 20_000);

  it('ISSUE-24 AFF-7: "release the lease" drops the held session\'s pin and tries again at once', async () => {
    const only = await scene.fake('only');
    const h = await scene.start({ connections: [anthropicConnection('only', only.url, { models: [MODEL] })] });
    const session = { 'x-claude-code-session-id': 'sess-pinned' };
    expect((await send(ask(h, false, session))).status).toBe(200);
    expect((await call(h, 'sessions.list', undefined)).some((p) => p.session === 'sess-pinned')).toBe(true);
    only.enqueue(limited(30));
    const pending = send(ask(h, false, session));
    const held = await firstHeld(h);
    await call(h, 'held.act', { id: held.id, action: 'release-lease' });
    expect((await call(h, 'sessions.list', undefined)).some((p) => p.session === 'sess-pinned')).toBe(false);
    // It planned again at once, unpinned; the only connection still cools, so it is held anew, under a new id.
    const again = await firstHeld(h);
    expect(again.id).not.toBe(held.id);
    expect(again.actions).toEqual(['cancel', 'go-now', 'release-lease']);
    expect(only.requests).toHaveLength(2);
    await call(h, 'held.act', { id: again.id, action: 'cancel' });
    expect((await pending).status).toBe(409);
  }, 20_000);

  it('ISSUE-24 QUEUE-1: a request waiting for a maxConcurrent slot is listed; "use any connection now" sends it beside the running one', async () => {
    const glm = await scene.fake('glm');
    const h = await scene.start({
      connections: [{ ...anthropicConnection('glm', glm.url, { models: [MODEL] }), maxConcurrent: 1 }],
    });
    glm.enqueue({ kind: 'delay', ms: 4_000 });
    const first = send(ask(h, false));
    await until(() => glm.requests.length === 1, 'the first request upstream');
    const second = send(ask(h, false));
    const held = await firstHeld(h);
    expect(held).toMatchObject({ waitsFor: 'queue', actions: ['cancel', 'go-now'] });
    expect(held.what).toMatch(/a free slot on glm/);
    const refused = await callRaw(h, 'held.act', { id: held.id, action: 'release-lease' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const at = Date.now();
    await call(h, 'held.act', { id: held.id, action: 'go-now' });
    const res = await second;
    expect(Date.now() - at).toBeLessThan(2_000);
    expect(res.status).toBe(200);
    expect((await first).status).toBe(200);
  }, 20_000);

  it('ISSUE-24: an action on a request that is not waiting is a typed not_found', async () => {
    const only = await scene.fake('only');
    const h = await scene.start({ connections: [anthropicConnection('only', only.url, { models: [MODEL] })] });
    expect(await callRaw(h, 'held.act', { id: 'h999', action: 'cancel' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });
});
