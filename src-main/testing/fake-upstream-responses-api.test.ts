import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from './fake-upstream';

// The native Responses API route of the fake OpenAI upstream, read by the official SDK.
const started: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((u) => u.close()));
});

async function client(): Promise<{ up: FakeUpstream; sdk: OpenAI }> {
  const up = await startFakeUpstream({ format: 'openai', name: 'resp' });
  started.push(up);
  return { up, sdk: new OpenAI({ apiKey: 'sk-test', baseURL: `${up.url}/v1`, maxRetries: 0 }) };
}

function eventNames(body: string): string[] {
  return body
    .split('\n')
    .filter((line) => line.startsWith('event: '))
    .map((line) => line.slice(7));
}

describe('fake upstream: Responses API', () => {
  it('answers responses.create with a completed response, echoing instructions and usage', async () => {
    const { up, sdk } = await client();
    up.enqueue({ kind: 'ok', text: 'native answer', usage: { input: 11, output: 3 } });
    const response = await sdk.responses.create({ model: 'gpt-4o', instructions: 'be brief', input: 'hi' });
    expect(response).toMatchObject({
      id: 'resp_resp_1',
      object: 'response',
      status: 'completed',
      instructions: 'be brief',
      usage: { input_tokens: 11, output_tokens: 3, total_tokens: 14 },
    });
    expect(response.output_text).toBe('native answer');
    expect(up.requests[0]?.path).toBe('/v1/responses');
  });

  it('streams the real event sequence that the SDK assembles into the final response', async () => {
    const { up, sdk } = await client();
    up.enqueue({ kind: 'ok', text: 'streamed native answer', deltas: 3 });
    const stream = sdk.responses.stream({ model: 'gpt-4o', input: 'hi' });
    const deltas: string[] = [];
    stream.on('response.output_text.delta', (event) => deltas.push(event.delta));
    const final = await stream.finalResponse();
    expect(deltas).toHaveLength(3);
    expect(final.output_text).toBe('streamed native answer');
    expect(eventNames(up.requests[0]?.response?.body ?? '')).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
  });

  it('a tool-call behaviour answers with function_call items, streamed as argument deltas', async () => {
    const { up, sdk } = await client();
    const call = { name: 'exec_command', input: { cmd: 'echo hi' } };
    up.enqueue({ kind: 'tool-call', calls: [call] }, { kind: 'tool-call', calls: [call], fragments: 3 });
    const whole = await sdk.responses.create({ model: 'gpt-4o', input: 'run it' });
    expect(whole.output).toEqual([
      expect.objectContaining({
        type: 'function_call',
        name: 'exec_command',
        arguments: '{"cmd":"echo hi"}',
        call_id: 'call_resp_1_0',
      }),
    ]);

    const stream = sdk.responses.stream({ model: 'gpt-4o', input: 'run it' });
    const argDeltas: string[] = [];
    stream.on('response.function_call_arguments.delta', (event) => argDeltas.push(event.delta));
    const final = await stream.finalResponse();
    expect(argDeltas).toHaveLength(3);
    expect(argDeltas.join('')).toBe('{"cmd":"echo hi"}');
    expect(final.output[0]).toMatchObject({
      type: 'function_call',
      arguments: '{"cmd":"echo hi"}',
      status: 'completed',
    });
  });

  it('the Anthropic fake has no Responses route (404)', async () => {
    const up = await startFakeUpstream({ format: 'anthropic', name: 'a' });
    started.push(up);
    const res = await fetch(`${up.url}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
      body: '{}',
    });
    expect(res.status).toBe(404);
  });
});
