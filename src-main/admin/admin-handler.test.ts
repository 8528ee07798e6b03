import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fail, ok } from '../../src-shared/contract/errors';
import { startAdminHarness, TEST_TOKEN, type AdminHarness } from '../testing/admin-harness';

const bearer = { authorization: `Bearer ${TEST_TOKEN}` };
const json = { 'content-type': 'application/json' };

describe('admin HTTP door: auth and rpc', () => {
  let h: AdminHarness;
  const logs: string[] = [];
  beforeEach(async () => {
    logs.length = 0;
    h = await startAdminHarness({
      handlers: {
        'connections.remove': ({ name }) =>
          name === 'ghost' ? fail('not_found', `No connection "${name}"`) : ok({ removed: true }),
        'combos.remove': () => {
          throw new Error('boom with secret sk-live-123');
        },
      },
      log: (line) => logs.push(line),
    });
  });
  afterEach(() => h.close());

  const rpc = (method: string, body: string | undefined, headers: Record<string, string> = { ...bearer, ...json }) =>
    fetch(`${h.base}/api/rpc/${method}`, { method: 'POST', headers, ...(body === undefined ? {} : { body }) });

  it('PROD-9 answers /api/health without a token', async () => {
    const res = await fetch(`${h.base}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });

  it('PROD-9 PROD-18 refuses rpc without a token, or with a wrong one, as 401 unauthorized', async () => {
    for (const headers of [
      json,
      { ...json, authorization: 'Bearer nope-nope-nope-nope' },
      { ...json, cookie: 'leeway_token=wrong' },
    ]) {
      const res = await rpc('app.info', '{}', headers);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    }
  });

  it('PROD-9 accepts the token as a Bearer header or as the leeway_token cookie', async () => {
    const viaHeader = await rpc('app.info', undefined);
    expect(viaHeader.status).toBe(200);
    expect(await viaHeader.json()).toMatchObject({ ok: true, value: { mode: 'headless' } });
    // A cookie-authenticated POST also needs the door's own Origin (the CSRF guard), as the browser sends it.
    const viaCookie = await rpc('app.info', '{}', {
      ...json,
      origin: h.base,
      cookie: `other=1; leeway_token=${TEST_TOKEN}`,
    });
    expect(viaCookie.status).toBe(200);
  });

  it('PROD-8 answers the router Result with 200 for ok and statusOf(error) otherwise', async () => {
    const okRes = await rpc('app.setPaused', '{"paused":true}');
    expect(okRes.status).toBe(200);
    expect(await okRes.json()).toMatchObject({ ok: true, value: { paused: true } });

    const notFound = await rpc('connections.remove', '{"name":"ghost"}');
    expect(notFound.status).toBe(404);
    expect(await notFound.json()).toMatchObject({ ok: false, error: { code: 'not_found' } });

    const unknown = await rpc('nope.nothing', '{}');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ ok: false, error: { code: 'unknown_method' } });

    const invalid = await rpc('app.setPaused', '{"paused":"yes"}');
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });

  it('PROD-8 turns a throwing handler into a generic 500 without its message', async () => {
    const res = await rpc('combos.remove', '{"name":"fast"}');
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).toContain('internal_error');
    expect(text).not.toContain('sk-live-123');
  });

  it('PROD-8 refuses invalid JSON with 400 invalid_json', async () => {
    const res = await rpc('app.setPaused', '{"paused": tru');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ ok: false, error: { code: 'invalid_json' } });
  });

  it('PROD-18 refuses a body over 1 MiB with 413 body_too_large', async () => {
    const res = await rpc('keys.create', JSON.stringify({ name: 'x'.repeat(1024 * 1024) }));
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ ok: false, error: { code: 'body_too_large' } });
  });

  it('PROD-18 refuses an oversize chunked body that declares no length', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode('{"name":"'));
        if (sent > 2 * 1024 * 1024) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const res = await fetch(`${h.base}/api/rpc/keys.create`, {
      method: 'POST',
      headers: { ...bearer, ...json },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { code: 'body_too_large' } });
  });

  it('PROD-18 requires application/json for rpc POSTs (CSRF guard) and POST as the method', async () => {
    const form = await rpc('app.setPaused', 'paused=true', {
      ...bearer,
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(415);
    const plain = await rpc('app.setPaused', '{"paused":true}', { ...bearer, 'content-type': 'text/plain' });
    expect(plain.status).toBe(415);
    const withCharset = await rpc('app.setPaused', '{"paused":true}', {
      ...bearer,
      'content-type': 'application/json; charset=utf-8',
    });
    expect(withCharset.status).toBe(200);
    const get = await fetch(`${h.base}/api/rpc/app.info`, { headers: bearer });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('PROD-9 answers unknown /api paths with 404 and leaves other non-GET requests to the proxy', async () => {
    const unknown = await fetch(`${h.base}/api/nothing`, { headers: bearer });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'not_found' } });
    const post = await fetch(`${h.base}/something`, { method: 'POST' });
    expect(await post.text()).toBe('not the admin door');
  });

  it('PROD-18 never echoes the admin token in an error body or a log line', async () => {
    const answers = await Promise.all([
      rpc('nope', '{}'),
      rpc('app.setPaused', '{"paused":1}'),
      rpc('app.setPaused', '{bad'),
      rpc('app.info', '{}', { ...bearer, 'content-type': 'text/plain' }),
      rpc('combos.remove', '{"name":"fast"}'),
      fetch(`${h.base}/api/nothing`, { headers: bearer }),
      fetch(`${h.base}/?token=${TEST_TOKEN}x`),
      fetch(`${h.base}/api/events`, { method: 'POST', headers: bearer }),
    ]);
    for (const res of answers) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(await res.text()).not.toContain(TEST_TOKEN);
    }
    expect(logs.join('\n')).not.toContain(TEST_TOKEN);
  });
});
