import Anthropic, { type APIError } from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { anthropicConnection } from '../start-leeway';
import { activity, useClientHarness } from './client-harness';

// The official Anthropic SDK pointed at Leeway exactly as a user would: base URL + local key.
const harness = useClientHarness();

const userMessage = [{ role: 'user' as const, content: 'hi' }];

async function single(options: { models?: string[] } = {}) {
  const upstream = await harness.upstream({ format: 'anthropic', name: 'up' });
  const leeway = await harness.leeway({
    connections: [anthropicConnection('a1', upstream.url, options.models ? { models: options.models } : {})],
  });
  const client = new Anthropic({ baseURL: leeway.url, apiKey: leeway.key, maxRetries: 0 });
  return { upstream, leeway, client };
}

describe('Anthropic SDK through Leeway', () => {
  it('PROD-10: messages.create returns the upstream answer and Leeway names the connection', async () => {
    const { upstream, leeway } = await single();
    const sentByClient: Headers[] = [];
    const client = new Anthropic({
      baseURL: leeway.url,
      apiKey: leeway.key,
      maxRetries: 0,
      fetch: (input, init) => {
        sentByClient.push(new Headers(init?.headers));
        return fetch(input, init);
      },
    });
    upstream.enqueue({ kind: 'ok', text: 'plain answer', usage: { input: 9, output: 2 } });
    const { data, response } = await client.messages
      .create({ model: 'claude-sonnet-4-6', max_tokens: 32, messages: userMessage })
      .withResponse();
    expect(data.content).toEqual([{ type: 'text', text: 'plain answer' }]);
    expect(data.usage).toMatchObject({ input_tokens: 9, output_tokens: 2 });
    expect(data.model).toBe('claude-sonnet-4-6');
    expect(response.headers.get('x-leeway-connection')).toBe('a1');
    const sent = upstream.requests[0];
    expect(sent?.path).toBe('/v1/messages');
    expect(sent?.headers['x-api-key']).toBe('sk-ant-secret-a1-0000');
    // Whatever API version the SDK speaks (2026-10-21 for SDK 1.14) is passed through untouched.
    expect(sent?.headers['anthropic-version']).toBe(sentByClient[0]?.get('anthropic-version'));
    expect(sent?.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(JSON.stringify(sent?.headers)).not.toContain(leeway.key);
  });

  it('PROD-10: messages.stream yields every text delta and the final usage', async () => {
    const { upstream, client } = await single();
    upstream.enqueue({ kind: 'ok', text: 'streamed reply from upstream', usage: { input: 12, output: 5 }, deltas: 4 });
    const stream = client.messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 32, messages: userMessage });
    const deltas: string[] = [];
    stream.on('text', (delta) => deltas.push(delta));
    const final = await stream.finalMessage();
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('streamed reply from upstream');
    expect(final.content[0]).toMatchObject({ type: 'text', text: 'streamed reply from upstream' });
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage).toMatchObject({ input_tokens: 12, output_tokens: 5 });
    expect(stream.response?.headers.get('x-leeway-connection')).toBe('a1');
    expect((upstream.requests[0]?.json as { stream?: boolean }).stream).toBe(true);
  });

  it('PROD-10: create({ stream: true }) yields raw events ending in message_stop, and the log has the usage', async () => {
    const { upstream, leeway, client } = await single();
    upstream.enqueue({ kind: 'ok', text: 'raw events', usage: { input: 7, output: 3 } });
    const stream = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 32,
      messages: userMessage,
      stream: true,
    });
    const types: string[] = [];
    let text = '';
    let outputTokens: number | null = null;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
      if (event.type === 'message_delta') outputTokens = event.usage.output_tokens;
    }
    expect(text).toBe('raw events');
    expect(outputTokens).toBe(3);
    expect(types[0]).toBe('message_start');
    expect(types.at(-1)).toBe('message_stop');
    const [entry] = await activity(leeway);
    expect(entry).toMatchObject({
      connection: 'a1',
      status: 200,
      stream: true,
      inputTokens: 7,
      outputTokens: 3,
      endpoint: 'messages',
    });
  });

  it('PROD-10: messages.countTokens is relayed to the connection', async () => {
    const { upstream, client } = await single();
    const counted = await client.messages.countTokens({
      model: 'claude-sonnet-4-6',
      messages: [{ role: 'user', content: 'count these words please' }],
    });
    expect(counted.input_tokens).toBeGreaterThan(0);
    expect(upstream.requests[0]?.path).toBe('/v1/messages/count_tokens');
    expect(counted.input_tokens).toBe(
      (JSON.parse(upstream.requests[0]?.response?.body ?? '{}') as { input_tokens: number }).input_tokens,
    );
  });

  it('PROD-16: a combo whose first target answers 429 still answers, and the raw headers name the second', async () => {
    const first = await harness.upstream({ format: 'anthropic', name: 'first' });
    const second = await harness.upstream({ format: 'anthropic', name: 'second' });
    const leeway = await harness.leeway({
      connections: [anthropicConnection('primary', first.url), anthropicConnection('backup', second.url)],
      combos: [
        {
          name: 'main',
          targets: [
            { connection: 'primary', model: 'claude-sonnet-4-6' },
            { connection: 'backup', model: 'claude-haiku-4-5' },
          ],
        },
      ],
    });
    const client = new Anthropic({ baseURL: leeway.url, apiKey: leeway.key, maxRetries: 0 });
    first.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '30' } });
    second.enqueue({ kind: 'ok', text: 'answer from the backup' });
    const { data, response } = await client.messages
      .create({ model: 'main', max_tokens: 32, messages: userMessage })
      .withResponse();
    expect(data.content).toEqual([{ type: 'text', text: 'answer from the backup' }]);
    expect(response.headers.get('x-leeway-connection')).toBe('backup');
    expect(response.headers.get('x-leeway-failover')).toBe('primary=429');
    expect(first.requests).toHaveLength(1);
    expect((second.requests[0]?.json as { model: string }).model).toBe('claude-haiku-4-5');
  });

  it('PROD-16: the streaming helper fails over too, before the first byte', async () => {
    const first = await harness.upstream({ format: 'anthropic', name: 'first' });
    const second = await harness.upstream({ format: 'anthropic', name: 'second' });
    const leeway = await harness.leeway({
      connections: [anthropicConnection('primary', first.url), anthropicConnection('backup', second.url)],
      combos: [
        {
          name: 'main',
          targets: [
            { connection: 'primary', model: 'claude-sonnet-4-6' },
            { connection: 'backup', model: 'claude-sonnet-4-6' },
          ],
        },
      ],
    });
    const client = new Anthropic({ baseURL: leeway.url, apiKey: leeway.key, maxRetries: 0 });
    first.enqueue({ kind: 'status', status: 529 });
    second.enqueue({ kind: 'ok', text: 'streamed by the backup' });
    const stream = client.messages.stream({ model: 'main', max_tokens: 32, messages: userMessage });
    const final = await stream.finalMessage();
    expect(final.content[0]).toMatchObject({ type: 'text', text: 'streamed by the backup' });
    const { response } = await stream.withResponse();
    expect(response.headers.get('x-leeway-connection')).toBe('backup');
    expect(response.headers.get('x-leeway-failover')).toBe('primary=529');
  });

  it('PROD-10: an unknown model is a NotFoundError 404 naming the model', async () => {
    const { upstream, client } = await single({ models: ['claude-sonnet-4-6'] });
    const call = client.messages.create({ model: 'claude-does-not-exist', max_tokens: 8, messages: userMessage });
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    expect(error).toMatchObject({ status: 404 });
    expect((error as APIError).message).toContain('claude-does-not-exist');
    expect((error as APIError).error).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    expect(upstream.requests).toHaveLength(0);
  });

  it('PROD-10: a wrong local key is an AuthenticationError 401 and nothing goes upstream', async () => {
    const { upstream, leeway } = await single();
    const client = new Anthropic({ baseURL: leeway.url, apiKey: 'lw-not-the-right-key-000000', maxRetries: 0 });
    const error = await client.messages
      .create({ model: 'claude-sonnet-4-6', max_tokens: 8, messages: userMessage })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(error).toMatchObject({ status: 401 });
    const streamed = await client.messages
      .stream({ model: 'claude-sonnet-4-6', max_tokens: 8, messages: userMessage })
      .finalMessage()
      .catch((e: unknown) => e);
    expect(streamed).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(upstream.requests).toHaveLength(0);
  });

  it('PROD-10: an upstream error on the only connection reaches the SDK as its typed error', async () => {
    const { upstream, client } = await single();
    // Longer than the cooldown wait's 30 s (CONC-7): answered at once, not waited out.
    upstream.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '120' } });
    const error = await client.messages
      .create({ model: 'claude-sonnet-4-6', max_tokens: 8, messages: userMessage })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    expect((error as APIError).headers?.get('retry-after')).toBe('120');
    expect((error as APIError).requestID).toBe('req_up_1');
  });

  it('PROD-10: models.list shows the models Leeway serves', async () => {
    const { client } = await single({ models: ['claude-sonnet-4-6', 'claude-haiku-4-5'] });
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(expect.arrayContaining(['claude-sonnet-4-6', 'claude-haiku-4-5']));
  });
});
