import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from './fake-upstream';

// The official SDKs are the strictest available judges of whether the fake's wire format is real.
const started: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((u) => u.close()));
});

async function start(format: 'anthropic' | 'openai'): Promise<FakeUpstream> {
  const upstream = await startFakeUpstream({ format, name: 'sdk' });
  started.push(upstream);
  return upstream;
}

const userMessage = [{ role: 'user' as const, content: 'hi' }];

describe('fake upstream parsed by the official SDKs', () => {
  it('the Anthropic SDK reads a Message and assembles a streamed one', async () => {
    const up = await start('anthropic');
    const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: up.url, maxRetries: 0 });
    up.enqueue({ kind: 'ok', text: 'plain', usage: { input: 4, output: 1 } });
    const message = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 8, messages: userMessage });
    expect(message.content).toEqual([{ type: 'text', text: 'plain' }]);
    expect(message.usage.input_tokens).toBe(4);

    up.enqueue({ kind: 'ok', text: 'streamed reply', usage: { input: 4, output: 3 } });
    const stream = client.messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 8, messages: userMessage });
    const final = await stream.finalMessage();
    expect(final.content[0]).toMatchObject({ type: 'text', text: 'streamed reply' });
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage.output_tokens).toBe(3);
  });

  it('the Anthropic SDK maps 429 and 529 to its typed errors', async () => {
    const up = await start('anthropic');
    const client = new Anthropic({ apiKey: 'k', baseURL: up.url, maxRetries: 0 });
    up.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '3' } }, { kind: 'status', status: 529 });
    const call = (): Promise<unknown> =>
      client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 8, messages: userMessage });
    await expect(call()).rejects.toBeInstanceOf(Anthropic.RateLimitError);
    await expect(call()).rejects.toMatchObject({ status: 529, requestID: 'req_sdk_2' });
  });

  it('the OpenAI SDK reads a completion and a stream with the final usage chunk', async () => {
    const up = await start('openai');
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${up.url}/v1`, maxRetries: 0 });
    up.enqueue({ kind: 'ok', text: 'plain', usage: { input: 4, output: 1 } });
    const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: userMessage });
    expect(completion.choices[0]?.message.content).toBe('plain');
    expect(completion.usage?.total_tokens).toBe(5);

    up.enqueue({ kind: 'ok', text: 'streamed reply', usage: { input: 4, output: 3 } });
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: userMessage,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe('streamed reply');
    expect(usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 3, total_tokens: 7 });
  });

  it('the OpenAI SDK maps a rejected key 401 to AuthenticationError', async () => {
    const up = await startFakeUpstream({ format: 'openai', name: 'sdk', apiKey: 'right' });
    started.push(up);
    const client = new OpenAI({ apiKey: 'wrong', baseURL: `${up.url}/v1`, maxRetries: 0 });
    const call = client.chat.completions.create({ model: 'gpt-4o-mini', messages: userMessage });
    await expect(call).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    expect(up.requests[0]?.response?.status).toBe(401);
  });
});
