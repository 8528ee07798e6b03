import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { anthropicConnection, openaiConnection } from '../start-leeway';
import { useClientHarness } from './client-harness';

/*
 * Issue 12 §1: errors across formats. An upstream error of the other format reaches the client in
 * its own error envelope with the upstream's status and message; a request that cannot be
 * translated is refused with a 400 naming the field, before anything goes upstream.
 */
const harness = useClientHarness();

async function openaiClientOnAnthropic() {
  const upstream = await harness.upstream({ format: 'anthropic', name: 'claude' });
  const leeway = await harness.leeway({
    connections: [anthropicConnection('a1', upstream.url, { models: ['claude-sonnet-4-6'] })],
  });
  const client = new OpenAI({ baseURL: `${leeway.url}/v1`, apiKey: leeway.key, maxRetries: 0 });
  return { upstream, leeway, client };
}

async function anthropicClientOnGlm() {
  const upstream = await harness.upstream({ format: 'openai', name: 'glm' });
  const leeway = await harness.leeway({
    connections: [openaiConnection('glm', upstream.url, { models: ['glm-4.6'] })],
  });
  const client = new Anthropic({ baseURL: leeway.url, apiKey: leeway.key, maxRetries: 0 });
  return { upstream, leeway, client };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => new Error('expected the call to fail'),
    (error: unknown) => error,
  );
}

const hi = [{ role: 'user' as const, content: 'hi' }];

describe('errors across formats (issue 12)', () => {
  it('issue 12 §1: an Anthropic 429 reaches the OpenAI SDK as RateLimitError in the OpenAI envelope, Retry-After kept', async () => {
    const { upstream, client } = await openaiClientOnAnthropic();
    upstream.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '120' } });
    const error = await failure(client.chat.completions.create({ model: 'claude-sonnet-4-6', messages: hi }));
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const apiError = error as InstanceType<typeof OpenAI.APIError>;
    expect(apiError.status).toBe(429);
    expect(apiError.headers?.get('retry-after')).toBe('120');
    // OpenAI's envelope: { error: { message, type, code } }, the upstream's message inside.
    expect(apiError.error).toMatchObject({ message: expect.stringContaining('rate limit') });
    expect(apiError.error).not.toHaveProperty('error');
    expect(upstream.requests).toHaveLength(1);
  });

  it('issue 12 §1: an Anthropic 400 reaches the OpenAI SDK as BadRequestError with the upstream message', async () => {
    const { upstream, client } = await openaiClientOnAnthropic();
    upstream.enqueue({
      kind: 'status',
      status: 400,
      body: {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'max_tokens: 999999 > 64000, the maximum' },
      },
    });
    const error = await failure(
      client.chat.completions.create({ model: 'claude-sonnet-4-6', messages: hi, max_tokens: 999999, stream: true }),
    );
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.APIError>).message).toContain('max_tokens: 999999 > 64000');
    expect((error as InstanceType<typeof OpenAI.APIError>).type).toBe('invalid_request_error');
  });

  it('issue 12 §1: an OpenAI-compatible 429 reaches the Anthropic SDK as RateLimitError with rate_limit_error', async () => {
    const { upstream, client } = await anthropicClientOnGlm();
    // Longer than the cooldown wait's 90 s (CONC-8): the 429 is the answer, not a hold.
    upstream.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '600' } });
    const error = await failure(client.messages.create({ model: 'glm-4.6', max_tokens: 16, messages: hi }));
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    const apiError = error as InstanceType<typeof Anthropic.APIError>;
    expect(apiError.headers?.get('retry-after')).toBe('600');
    expect(apiError.error).toMatchObject({
      type: 'error',
      error: { type: 'rate_limit_error', message: expect.stringContaining('Rate limit') },
    });
  });

  it('issue 12 §1: an OpenAI-compatible 400 reaches the Anthropic SDK stream as BadRequestError with invalid_request_error', async () => {
    const { upstream, client } = await anthropicClientOnGlm();
    upstream.enqueue({
      kind: 'status',
      status: 400,
      body: {
        error: {
          message: "Invalid 'messages[0].content': empty",
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      },
    });
    const stream = client.messages.stream({ model: 'glm-4.6', max_tokens: 16, messages: hi });
    const error = await failure(stream.finalMessage());
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringContaining("Invalid 'messages[0].content'") },
    });
  });

  it('issue 12 §2: an Anthropic 529 on a translated Responses request reaches the OpenAI SDK as a 5xx APIError', async () => {
    const { upstream, client } = await openaiClientOnAnthropic();
    upstream.enqueue({ kind: 'status', status: 529 });
    const error = await failure(client.responses.create({ model: 'claude-sonnet-4-6', input: 'hi' }));
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBeGreaterThanOrEqual(500);
    expect((error as InstanceType<typeof OpenAI.APIError>).message).toContain('Overloaded');
  });

  it('issue 12 §1: an OpenAI field Anthropic cannot carry (logprobs) is a 400 naming it, x-should-retry false, nothing sent', async () => {
    const { upstream, leeway } = await openaiClientOnAnthropic();
    const res = await fetch(`${leeway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${leeway.key}` },
      body: JSON.stringify({ model: 'claude-sonnet-4-6', messages: hi, logprobs: true }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-should-retry')).toBe('false');
    const body = (await res.json()) as { error?: { message?: string; type?: string } };
    expect(body.error?.type).toBe('invalid_request_error');
    expect(body.error?.message).toContain('logprobs');
    expect(upstream.requests).toHaveLength(0);
  });

  it('issue 12 §1: an Anthropic document block is refused for a chat-completions connection with a 400 naming the block', async () => {
    const { upstream, client } = await anthropicClientOnGlm();
    const error = await failure(
      client.messages.create({
        model: 'glm-4.6',
        max_tokens: 16,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'a plain document' } },
              { type: 'text', text: 'summarise' },
            ],
          },
        ],
      }),
    );
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    const apiError = error as InstanceType<typeof Anthropic.APIError>;
    expect(apiError.headers?.get('x-should-retry')).toBe('false');
    expect(apiError.error).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(apiError.message).toContain('messages[0].content[0].type');
    expect(upstream.requests).toHaveLength(0);
  });
});
