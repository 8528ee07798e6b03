import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from './fake-upstream';
import { anthropicStreamFrames, splitText } from './sse-frames';

const started: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((u) => u.close()));
});

async function start(extra: { apiKey?: string; requireAuth?: boolean } = {}): Promise<FakeUpstream> {
  const upstream = await startFakeUpstream({ format: 'anthropic', name: 'up', ...extra });
  started.push(upstream);
  return upstream;
}

const anthropicHeaders = {
  'content-type': 'application/json',
  'x-api-key': 'sk-ant-test',
  'anthropic-version': '2023-06-01',
};
const anthropicBody = (extra: object = {}): string =>
  JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }], ...extra });

describe('fake upstream: Anthropic format', () => {
  it('answers a Message JSON that echoes the model, with request-id and the request recorded', async () => {
    const up = await start();
    up.enqueue({
      kind: 'ok',
      text: 'Hi there',
      usage: { input: 11, output: 3 },
    });
    const res = await fetch(`${up.url}/v1/messages?beta=true`, {
      method: 'POST',
      headers: anthropicHeaders,
      body: anthropicBody(),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('request-id')).toBe('req_up_1');
    expect(res.headers.get('anthropic-ratelimit-requests-limit')).toBe('4000');
    expect(await res.json()).toEqual({
      id: 'msg_up_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-6',
      content: [{ type: 'text', text: 'Hi there' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: {
        input_tokens: 11,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: 3,
      },
    });
    const [recorded] = up.requests;
    expect(recorded).toMatchObject({
      seq: 1,
      method: 'POST',
      path: '/v1/messages?beta=true',
      aborted: false,
    });
    expect(recorded?.headers['x-api-key']).toBe('sk-ant-test');
    expect(recorded?.json).toMatchObject({ model: 'claude-sonnet-4-6' });
    expect(recorded?.response).toMatchObject({ status: 200, complete: true });
  });

  it('streams exactly the frames sse-frames predicts, and records the bytes written', async () => {
    const up = await start();
    up.enqueue({
      kind: 'ok',
      text: 'Streaming works',
      usage: { input: 9, output: 4 },
      deltas: 4,
    });
    const res = await fetch(`${up.url}/v1/messages`, {
      method: 'POST',
      headers: anthropicHeaders,
      body: anthropicBody({ stream: true }),
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const text = await res.text();
    const expected = anthropicStreamFrames({
      id: 'msg_up_1',
      model: 'claude-sonnet-4-6',
      deltas: splitText('Streaming works', 4),
      inputTokens: 9,
      outputTokens: 4,
    }).join('');
    expect(text).toBe(expected);
    expect(up.requests[0]?.response?.body).toBe(text);
  });

  it('counts tokens and lists models in Anthropic shapes', async () => {
    const up = await start();
    const count = await fetch(`${up.url}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: anthropicHeaders,
      body: anthropicBody(),
    });
    expect(await count.json()).toEqual({
      input_tokens: expect.any(Number) as number,
    });
    const models = (await (await fetch(`${up.url}/v1/models`, { headers: anthropicHeaders })).json()) as Record<
      string,
      unknown
    >;
    expect(models).toMatchObject({
      has_more: false,
      first_id: 'claude-sonnet-4-6',
      last_id: 'claude-haiku-4-5-20251001',
    });
    expect((models['data'] as unknown[])[0]).toEqual({
      type: 'model',
      id: 'claude-sonnet-4-6',
      display_name: 'Claude Sonnet 4.6',
      created_at: '2025-09-29T00:00:00Z',
    });
  });

  it('accepts x-api-key or Bearer, and answers 401 authentication_error without either', async () => {
    const up = await start();
    const bearer = await fetch(`${up.url}/v1/messages`, {
      method: 'POST',
      headers: { authorization: 'Bearer k' },
      body: anthropicBody(),
    });
    expect(bearer.status).toBe(200);
    const missing = await fetch(`${up.url}/v1/messages`, {
      method: 'POST',
      body: anthropicBody(),
    });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({
      type: 'error',
      error: { type: 'authentication_error' },
      request_id: 'req_up_2',
    });
  });

  it('rejects a key other than the configured apiKey, and skips auth when requireAuth is false', async () => {
    const strict = await start({ apiKey: 'right' });
    const wrong = await fetch(`${strict.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'wrong' },
      body: anthropicBody(),
    });
    expect(wrong.status).toBe(401);
    const open = await start({ requireAuth: false });
    expect(
      (
        await fetch(`${open.url}/v1/messages`, {
          method: 'POST',
          body: anthropicBody(),
        })
      ).status,
    ).toBe(200);
  });

  it('answers unknown paths with 404 not_found_error and bad JSON with 400', async () => {
    const up = await start();
    const missing = await fetch(`${up.url}/v1/nope`, {
      headers: anthropicHeaders,
    });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({
      type: 'error',
      error: { type: 'not_found_error' },
    });
    const bad = await fetch(`${up.url}/v1/messages`, {
      method: 'POST',
      headers: anthropicHeaders,
      body: '{nope',
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: { type: 'invalid_request_error' },
    });
  });
});
