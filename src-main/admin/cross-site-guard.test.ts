import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLeeway, type RunningLeeway } from '../testing/start-leeway';

/** A request with exactly these headers: fetch would add or drop Origin and Sec-Fetch-* on its own. */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    // Node sends a DELETE body without a length unless told; say it, as browsers do.
    const length = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
    const req = request(url, { method, headers: { ...length, ...headers } }, (res) => {
      // An event stream never ends: its status is the answer.
      if (String(res.headers['content-type']).startsWith('text/event-stream')) {
        res.destroy();
        return resolve({ status: res.statusCode ?? 0, json: null });
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, json: text.startsWith('{') ? (JSON.parse(text) as unknown) : text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('admin door: CSRF guard (issue 8 defect 6)', () => {
  let h: RunningLeeway;
  let cookie: Record<string, string>;
  let sameOrigin: string;
  let otherPort: string;
  beforeAll(async () => {
    h = await startLeeway({ connections: [] });
    cookie = { cookie: `leeway_token=${h.adminToken}` };
    sameOrigin = h.url;
    otherPort = `http://localhost:${Number(new URL(h.url).port) === 65_535 ? 65_534 : Number(new URL(h.url).port) + 1}`;
  });
  afterAll(() => h.stop());

  const json = { 'content-type': 'application/json' };
  const reset = (headers: Record<string, string>, body = '{}') =>
    send(`${h.url}/api/resilience/reset`, 'POST', headers, body);
  const paused = async () => {
    const info = await send(
      `${h.url}/api/rpc/app.info`,
      'POST',
      { ...json, authorization: `Bearer ${h.adminToken}` },
      '{}',
    );
    return (info.json as { value: { paused: boolean } }).value.paused;
  };

  it('ISSUE-8 refuses a text/plain POST authenticated by the cookie with 415 unsupported_media_type', async () => {
    const res = await reset({ ...cookie, 'content-type': 'text/plain', origin: sameOrigin });
    expect(res.status).toBe(415);
    expect(res.json).toMatchObject({ ok: false, error: { code: 'unsupported_media_type' } });
  });

  it('ISSUE-8 refuses a form post with 415, on REST and RPC routes alike', async () => {
    const form = { ...cookie, 'content-type': 'application/x-www-form-urlencoded' };
    expect((await reset(form, 'x=1')).status).toBe(415);
    expect((await send(`${h.url}/api/rpc/app.setPaused`, 'POST', form, 'paused=true')).status).toBe(415);
    expect(
      (await send(`${h.url}/api/resilience/cooldowns`, 'DELETE', { ...cookie, 'content-type': 'text/plain' }, '{}'))
        .status,
    ).toBe(415);
    expect(await paused()).toBe(false);
  });

  it('ISSUE-8 refuses JSON with the cookie from a page on another localhost port with 403 forbidden', async () => {
    const res = await reset({ ...cookie, ...json, origin: otherPort });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const rpc = await send(
      `${h.url}/api/rpc/app.setPaused`,
      'POST',
      { ...cookie, ...json, origin: otherPort },
      '{"paused":true}',
    );
    expect(rpc.status).toBe(403);
    expect(await paused()).toBe(false);
  });

  it('ISSUE-8 refuses JSON with the cookie and no Origin with 403', async () => {
    expect((await reset({ ...cookie, ...json })).status).toBe(403);
    expect(
      (await send(`${h.url}/api/rpc/app.setPaused`, 'POST', { ...cookie, ...json }, '{"paused":true}')).status,
    ).toBe(403);
    expect(await paused()).toBe(false);
  });

  it("ISSUE-8 accepts JSON with the cookie from the door's own origin, as the dashboard sends it", async () => {
    const res = await reset({ ...cookie, ...json, origin: sameOrigin });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ ok: true, resetCount: 0 });
    const rpc = await send(
      `${h.url}/api/rpc/app.setPaused`,
      'POST',
      { ...cookie, ...json, origin: sameOrigin },
      '{"paused":true}',
    );
    expect(rpc.status).toBe(200);
    expect(await paused()).toBe(true);
    await send(
      `${h.url}/api/rpc/app.setPaused`,
      'POST',
      { ...cookie, ...json, origin: sameOrigin },
      '{"paused":false}',
    );
  });

  it('ISSUE-8 accepts the Bearer token without any Origin, since no page can attach it', async () => {
    expect((await reset({ ...json, authorization: `Bearer ${h.adminToken}` })).status).toBe(200);
    expect(
      (await send(`${h.url}/api/resilience/reset`, 'POST', { authorization: `Bearer ${h.adminToken}` })).status,
    ).toBe(200);
  });

  it('ISSUE-8 keeps the event stream and REST reads from pages on other origins', async () => {
    const foreign: Record<string, string>[] = [
      { origin: otherPort },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'null' },
    ];
    for (const headers of foreign) {
      const events = await send(`${h.url}/api/events`, 'GET', { ...cookie, ...headers });
      expect(events.status, JSON.stringify(headers)).toBe(403);
      expect((await send(`${h.url}/api/monitoring/health`, 'GET', { ...cookie, ...headers })).status).toBe(403);
    }
    expect(
      (
        await send(`${h.url}/api/monitoring/health`, 'GET', {
          ...cookie,
          origin: sameOrigin,
          'sec-fetch-site': 'same-origin',
        })
      ).status,
    ).toBe(200);
  });
});
