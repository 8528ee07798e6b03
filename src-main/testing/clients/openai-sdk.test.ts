import OpenAI, { type APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import { openaiConnection } from '../start-leeway';
import { activity, useClientHarness } from './client-harness';

// The official OpenAI SDK, configured the way aider and other OpenAI clients are: base URL `${url}/v1`.
const harness = useClientHarness();

const userMessage = [{ role: 'user' as const, content: 'hi' }];

async function single(options: { models?: string[] } = {}) {
  const upstream = await harness.upstream({ format: 'openai', name: 'up' });
  const leeway = await harness.leeway({
    connections: [openaiConnection('o1', upstream.url, options.models ? { models: options.models } : {})],
  });
  const client = new OpenAI({ baseURL: `${leeway.url}/v1`, apiKey: leeway.key, maxRetries: 0 });
  return { upstream, leeway, client };
}

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => new Error('expected the call to fail'),
    (error: unknown) => error,
  );
}

describe('OpenAI SDK through Leeway', () => {
  it('PROD-11: chat.completions.create returns the upstream answer with the connection named', async () => {
    const { upstream, leeway, client } = await single();
    upstream.enqueue({ kind: 'ok', text: 'plain answer', usage: { input: 6, output: 2 } });
    const { data, response } = await client.chat.completions
      .create({ model: 'gpt-4o', messages: userMessage })
      .withResponse();
    expect(data.choices[0]?.message.content).toBe('plain answer');
    expect(data.usage).toMatchObject({ prompt_tokens: 6, completion_tokens: 2, total_tokens: 8 });
    expect(response.headers.get('x-leeway-connection')).toBe('o1');
    const sent = upstream.requests[0];
    expect(sent?.path).toBe('/v1/chat/completions');
    expect(sent?.headers.authorization).toBe('Bearer sk-openai-secret-o1-0000');
    expect(JSON.stringify(sent?.headers)).not.toContain(leeway.key);
  });

  it('PROD-11: a stream with include_usage (as aider sends) yields the text and usage, and the log records the tokens', async () => {
    const { upstream, leeway, client } = await single();
    upstream.enqueue({ kind: 'ok', text: 'streamed reply for aider', usage: { input: 21, output: 4 }, deltas: 4 });
    const stream = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: userMessage,
      stream: true,
      stream_options: { include_usage: true },
    });
    const deltas: string[] = [];
    let usage: OpenAI.CompletionUsage | null | undefined;
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (choice?.delta.content) deltas.push(choice.delta.content);
      finish = choice?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('streamed reply for aider');
    expect(finish).toBe('stop');
    expect(usage).toMatchObject({ prompt_tokens: 21, completion_tokens: 4, total_tokens: 25 });
    expect((upstream.requests[0]?.json as { stream_options?: unknown }).stream_options).toEqual({
      include_usage: true,
    });
    const [entry] = await activity(leeway);
    expect(entry).toMatchObject({
      apiFormat: 'openai',
      endpoint: 'chat_completions',
      connection: 'o1',
      model: 'gpt-4o',
      status: 200,
      stream: true,
      inputTokens: 21,
      outputTokens: 4,
      keyName: 'test',
    });
  });

  it('PROD-11: the streaming helper (chat.completions.stream) assembles the final completion', async () => {
    const { upstream, client } = await single();
    upstream.enqueue({ kind: 'ok', text: 'assembled by the helper', usage: { input: 3, output: 4 } });
    const stream = client.chat.completions.stream({
      model: 'gpt-4o-mini',
      messages: userMessage,
      stream_options: { include_usage: true },
    });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe('assembled by the helper');
    expect(final.usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 4 });
  });

  it('PROD-11: a base URL without /v1 works too (clients configured with the bare origin)', async () => {
    const { upstream, leeway } = await single();
    const client = new OpenAI({ baseURL: leeway.url, apiKey: leeway.key, maxRetries: 0 });
    upstream.enqueue({ kind: 'ok', text: 'bare origin' });
    const completion = await client.chat.completions.create({ model: 'gpt-4o', messages: userMessage });
    expect(completion.choices[0]?.message.content).toBe('bare origin');
    expect(upstream.requests[0]?.path).toBe('/v1/chat/completions');
  });

  it('PROD-16: a combo whose first target answers 429 is served by the second, and the headers say so', async () => {
    const first = await harness.upstream({ format: 'openai', name: 'first' });
    const second = await harness.upstream({ format: 'openai', name: 'second' });
    const leeway = await harness.leeway({
      connections: [openaiConnection('primary', first.url), openaiConnection('backup', second.url)],
      combos: [
        {
          name: 'coder',
          targets: [
            { connection: 'primary', model: 'gpt-4o' },
            { connection: 'backup', model: 'gpt-4o-mini' },
          ],
        },
      ],
    });
    const client = new OpenAI({ baseURL: `${leeway.url}/v1`, apiKey: leeway.key, maxRetries: 0 });
    first.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '20' } });
    second.enqueue({ kind: 'ok', text: 'backup answer' });
    const stream = await client.chat.completions
      .create({ model: 'coder', messages: userMessage, stream: true, stream_options: { include_usage: true } })
      .withResponse();
    let text = '';
    for await (const chunk of stream.data) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('backup answer');
    expect(stream.response.headers.get('x-leeway-connection')).toBe('backup');
    expect(stream.response.headers.get('x-leeway-failover')).toBe('primary=429');
    expect((second.requests[0]?.json as { model: string }).model).toBe('gpt-4o-mini');
  });

  it('PROD-11: an unknown model is the SDK NotFoundError 404', async () => {
    const { upstream, client } = await single({ models: ['gpt-4o'] });
    const error = await errorOf(client.chat.completions.create({ model: 'gpt-does-not-exist', messages: userMessage }));
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'model_not_found' });
    expect((error as APIError).message).toContain('gpt-does-not-exist');
    expect(upstream.requests).toHaveLength(0);
  });

  it('PROD-11: a wrong local key is the SDK AuthenticationError 401, streaming or not', async () => {
    const { upstream, leeway } = await single();
    const client = new OpenAI({ baseURL: `${leeway.url}/v1`, apiKey: 'lw-not-the-right-key-000000', maxRetries: 0 });
    const plain = await errorOf(client.chat.completions.create({ model: 'gpt-4o', messages: userMessage }));
    expect(plain).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(plain).toMatchObject({ status: 401, code: 'unauthorized' });
    const streamed = await errorOf(
      client.chat.completions.create({ model: 'gpt-4o', messages: userMessage, stream: true }),
    );
    expect(streamed).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(upstream.requests).toHaveLength(0);
  });

  it('PROD-11: upstream 429 and 500 on the only connection reach the SDK as RateLimitError and InternalServerError', async () => {
    const { upstream, leeway, client } = await single();
    // A retry-after longer than the cooldown wait's 30 s (CONC-7): answered at once, not waited out.
    upstream.enqueue(
      { kind: 'status', status: 429, headers: { 'retry-after': '120' } },
      { kind: 'status', status: 500 },
    );
    const limited = await errorOf(client.chat.completions.create({ model: 'gpt-4o', messages: userMessage }));
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    expect((limited as APIError).headers?.get('retry-after')).toBe('120');
    expect((limited as APIError).code).toBe('rate_limit_exceeded');
    // The 429 put the only connection in cooldown (COOL-4); clear it so the next answer is the upstream's own.
    await leeway.core.router.call('cooldowns.clear', { target: 'all' });
    const broken = await errorOf(
      client.chat.completions.create({ model: 'gpt-4o', messages: userMessage, stream: true }),
    );
    expect(broken).toBeInstanceOf(OpenAI.InternalServerError);
    expect(broken).toMatchObject({ status: 500 });
  });

  it('PROD-11: models.list shows the models and combos Leeway serves', async () => {
    const upstream = await harness.upstream({ format: 'openai', name: 'up' });
    const leeway = await harness.leeway({
      connections: [openaiConnection('o1', upstream.url, { models: ['gpt-4o', 'gpt-4o-mini'] })],
      combos: [{ name: 'coder', targets: [{ connection: 'o1', model: 'gpt-4o' }] }],
    });
    const client = new OpenAI({ baseURL: `${leeway.url}/v1`, apiKey: leeway.key, maxRetries: 0 });
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids.sort()).toEqual(['coder', 'gpt-4o', 'gpt-4o-mini']);
  });
});
