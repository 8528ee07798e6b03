import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { anthropicConnection, openaiConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';

let upstream: FakeUpstream;
let openai: FakeUpstream;
let h: RunningLeeway;

beforeAll(async () => {
  upstream = await startFakeUpstream({ format: 'anthropic' });
  openai = await startFakeUpstream({ format: 'openai' });
  h = await startLeeway({
    connections: [
      anthropicConnection('a1', upstream.url, { models: ['claude-sonnet-4-5'] }),
      openaiConnection('o1', openai.url, { models: ['gpt-4o'] }),
    ],
  });
  await h.core.router.call('settings.update', { maxBodyBytes: 4096 });
});

afterAll(async () => {
  await h.stop();
  await upstream.close();
  await openai.close();
});

/** Raw request so Host and Origin can be anything, as a hostile page or a stray client would send. */
function raw(path: string, init: { method?: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<{ status: number; headers: Record<string, unknown>; json: Record<string, unknown> }>(
    (resolve, reject) => {
      const url = new URL(h.url);
      const req = request(
        { host: url.hostname, port: url.port, path, method: init.method ?? 'POST', headers: init.headers },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              json: JSON.parse(text) as Record<string, unknown>,
            }),
          );
        },
      );
      req.on('error', reject);
      req.end(init.body);
    },
  );
}

const anthropic = (extra: Record<string, string> = {}) => ({
  'content-type': 'application/json',
  'x-api-key': h.key,
  'anthropic-version': '2023-06-01',
  ...extra,
});
const openaiHeaders = (extra: Record<string, string> = {}) => ({
  'content-type': 'application/json',
  authorization: `Bearer ${h.key}`,
  ...extra,
});
const errorType = (json: Record<string, unknown>) => (json.error as { type: string }).type;
const message = JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 8, messages: [] });

async function logRows(): Promise<number> {
  const list = await h.core.router.call('activity.list', { limit: 1000 });
  return list.ok ? (list.value as unknown[]).length : -1;
}

describe("bad input gets a clear error in the client's own format, logged with its reason, never its body", () => {
  it('PROD-18: invalid JSON → 400 Anthropic invalid_request_error', async () => {
    const before = await logRows();
    const res = await raw('/v1/messages', { headers: anthropic(), body: '{"model":' });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error' },
      leeway: { code: 'invalid_json' },
    });
    // Issue 13 §3: a refused request is in the activity log with its reason, not its content.
    expect(await logRows()).toBe(before + 1);
    const newest = await h.core.router.call('activity.list', { limit: 1 });
    expect(newest.ok && (newest.value as unknown[])[0]).toMatchObject({
      status: 400,
      errorCode: 'invalid_json',
      model: null,
    });
    expect(upstream.requests).toHaveLength(0);
  });

  it('PROD-18: a body over the size limit → 413 in OpenAI format', async () => {
    const res = await raw('/v1/chat/completions', {
      headers: openaiHeaders(),
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x'.repeat(10_000) }] }),
    });
    expect(res.status).toBe(413);
    expect(res.json).toMatchObject({ error: { code: 'body_too_large', type: 'invalid_request_error' } });
    expect(openai.requests).toHaveLength(0);
  });

  it('PROD-18: missing model → 400; unknown model → 404 listing what is available', async () => {
    const missing = await raw('/v1/messages', { headers: anthropic(), body: JSON.stringify({ messages: [] }) });
    expect(missing.status).toBe(400);
    expect((missing.json.error as { message: string }).message).toContain('model');
    const unknown = await raw('/v1/messages', {
      headers: anthropic(),
      body: JSON.stringify({ model: 'nope', messages: [] }),
    });
    expect(unknown.status).toBe(404);
    expect(errorType(unknown.json)).toBe('not_found_error');
    expect((unknown.json.error as { message: string }).message).toContain('claude-sonnet-4-5');
    // An OpenAI model asked for on the Anthropic endpoint is served by translation (issue 12), in Anthropic's shape.
    const otherFormat = await raw('/v1/messages', {
      headers: anthropic(),
      body: JSON.stringify({ model: 'gpt-4o', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(otherFormat.status).toBe(200);
    expect(otherFormat.json).toMatchObject({ type: 'message', role: 'assistant', model: 'gpt-4o' });
  });

  it('PROD-18: missing and wrong keys → 401 in each format', async () => {
    const none = await raw('/v1/messages', {
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: message,
    });
    expect(none.status).toBe(401);
    expect(errorType(none.json)).toBe('authentication_error');
    const wrong = await raw('/v1/chat/completions', {
      headers: { 'content-type': 'application/json', authorization: 'Bearer lw-wrong-key-000000000' },
      body: '{}',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toMatchObject({ error: { type: 'authentication_error', code: 'unauthorized' } });
    expect(JSON.stringify(wrong.json)).not.toContain('lw-wrong-key');
  });

  it('PROD-18: a Host that is not loopback is refused (DNS rebinding)', async () => {
    const res = await raw('/v1/messages', { headers: anthropic({ host: 'evil.example:7431' }), body: message });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ leeway: { code: 'forbidden_host' } });
    const ok = await raw('/v1/messages', { headers: anthropic({ host: 'localhost:7431' }), body: message });
    expect(ok.status).toBe(200);
  });

  it('PROD-18: a browser Origin that is not loopback is refused', async () => {
    const res = await raw('/v1/messages', { headers: anthropic({ origin: 'https://evil.example' }), body: message });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ leeway: { code: 'forbidden_origin' } });
  });

  it('PROD-18: an unsupported method or path → 405 / 404 in the client format', async () => {
    const wrongMethod = await raw('/v1/messages', { method: 'GET', headers: anthropic() });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toBe('POST');
    const unknownPath = await raw('/v1/completions', { headers: openaiHeaders(), body: '{}' });
    expect(unknownPath.status).toBe(404);
    expect(unknownPath.json).toMatchObject({ error: { type: 'not_found_error' } });
  });

  it('PROD-10: GET /v1/models answers in the OpenAI shape, and the Anthropic shape with anthropic-version', async () => {
    const asOpenai = await raw('/v1/models', { method: 'GET', headers: openaiHeaders() });
    // Both lists name every model either format can use: the other format's are served translated (issue 12).
    expect(asOpenai.json).toMatchObject({
      object: 'list',
      data: [
        { id: 'claude-sonnet-4-5', object: 'model' },
        { id: 'gpt-4o', object: 'model' },
      ],
    });
    const asAnthropic = await raw('/v1/models', { method: 'GET', headers: anthropic() });
    expect(asAnthropic.json).toMatchObject({
      data: [
        { id: 'claude-sonnet-4-5', type: 'model' },
        { id: 'gpt-4o', type: 'model' },
      ],
      has_more: false,
      first_id: 'claude-sonnet-4-5',
      last_id: 'gpt-4o',
    });
  });

  it("PROD-18: Leeway's own permanent refusals say x-should-retry: false, so SDKs (and Claude Code) stop at once", async () => {
    const cases = [
      await raw('/v1/messages', { headers: anthropic(), body: '{"model":' }),
      await raw('/v1/messages', { headers: anthropic({ 'x-api-key': 'lw-wrong-key-000000000' }), body: message }),
      await raw('/v1/messages', { headers: anthropic({ host: 'evil.example' }), body: message }),
      await raw('/v1/messages', { headers: anthropic(), body: JSON.stringify({ model: 'nope', messages: [] }) }),
      await raw('/v1/messages', { method: 'GET', headers: anthropic() }),
      await raw('/v1/chat/completions', {
        headers: openaiHeaders(),
        body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x'.repeat(10_000) }] }),
      }),
    ];
    expect(cases.map((c) => [c.status, c.headers['x-should-retry']])).toEqual([
      [400, 'false'],
      [401, 'false'],
      [403, 'false'],
      [404, 'false'],
      [405, 'false'],
      [413, 'false'],
    ]);
  });

  it('PROD-18: a paused proxy answers 503 with Retry-After and x-should-retry: true', async () => {
    await h.core.router.call('settings.update', { paused: true });
    try {
      const res = await raw('/v1/messages', { headers: anthropic(), body: message });
      expect(res.status).toBe(503);
      expect(res.headers['x-should-retry']).toBe('true');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await h.core.router.call('settings.update', { paused: false });
    }
  });
});
