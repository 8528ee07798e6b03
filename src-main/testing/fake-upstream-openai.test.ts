import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from './fake-upstream';
import { openaiStreamFrames, splitText } from './sse-frames';

const started: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((u) => u.close()));
});

async function start(): Promise<FakeUpstream> {
  const upstream = await startFakeUpstream({ format: 'openai', name: 'up' });
  started.push(upstream);
  return upstream;
}

const openaiHeaders = { 'content-type': 'application/json', authorization: 'Bearer sk-test' };
const openaiBody = (extra: object = {}): string =>
  JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], ...extra });

describe('fake upstream: OpenAI format', () => {
  it('answers a chat.completion with usage and x-request-id', async () => {
    const up = await start();
    up.enqueue({ kind: 'ok', text: 'Yo', usage: { input: 5, output: 2 } });
    const res = await fetch(`${up.url}/v1/chat/completions`, {
      method: 'POST',
      headers: openaiHeaders,
      body: openaiBody(),
    });
    expect(res.headers.get('x-request-id')).toBe('req_up_1');
    expect(await res.json()).toMatchObject({
      id: 'chatcmpl-up-1',
      object: 'chat.completion',
      model: 'gpt-4o-mini',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Yo' },
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
    });
  });

  it('streams chunks ending in a usage-only chunk and [DONE] when include_usage is set', async () => {
    const up = await start();
    up.enqueue({ kind: 'ok', text: 'abc', usage: { input: 5, output: 2 } });
    const body = openaiBody({
      stream: true,
      stream_options: { include_usage: true },
    });
    const res = await fetch(`${up.url}/v1/chat/completions`, {
      method: 'POST',
      headers: openaiHeaders,
      body,
    });
    const text = await res.text();
    const created = (JSON.parse(text.slice(6, text.indexOf('\n'))) as { created: number }).created;
    const frames = openaiStreamFrames({
      id: 'chatcmpl-up-1',
      model: 'gpt-4o-mini',
      created,
      deltas: splitText('abc', 3),
      includeUsage: true,
      promptTokens: 5,
      completionTokens: 2,
    });
    expect(text).toBe(frames.join(''));
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(text).toContain('"choices":[],"usage":{"prompt_tokens":5');
  });

  it('omits usage from the stream without include_usage', async () => {
    const up = await start();
    const res = await fetch(`${up.url}/v1/chat/completions`, {
      method: 'POST',
      headers: openaiHeaders,
      body: openaiBody({ stream: true }),
    });
    const text = await res.text();
    expect(text).not.toContain('usage');
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('lists models, requires Bearer (401 invalid_api_key), and 404s unknown paths', async () => {
    const up = await start();
    const models = await fetch(`${up.url}/v1/models`, {
      headers: openaiHeaders,
    });
    expect(await models.json()).toMatchObject({
      object: 'list',
      data: [{ id: 'gpt-4o', object: 'model', owned_by: 'system' }, { id: 'gpt-4o-mini' }],
    });
    const noAuth = await fetch(`${up.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'x-api-key': 'k' },
      body: openaiBody(),
    });
    expect(noAuth.status).toBe(401);
    expect(await noAuth.json()).toMatchObject({
      error: {
        type: 'invalid_request_error',
        code: 'invalid_api_key',
        param: null,
      },
    });
    const missing = await fetch(`${up.url}/v1/embeddings`, {
      method: 'POST',
      headers: openaiHeaders,
      body: '{}',
    });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      error: {
        message: 'Invalid URL (POST /v1/embeddings)',
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    });
  });
});
