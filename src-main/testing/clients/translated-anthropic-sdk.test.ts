import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../fake-upstream';
import { openaiConnection, type RunningLeeway } from '../start-leeway';
import { activity, useClientHarness } from './client-harness';

/*
 * Issue 12: the official Anthropic SDK through Leeway to an OpenAI-compatible connection (GLM
 * style): Messages is translated to Chat Completions and the answer back, stream or not.
 */
const harness = useClientHarness();
const MODEL = 'glm-4.6';
const WEATHER_TOOL: Anthropic.Tool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const CITY = { city: 'Zürich "Altstadt"', days: [1, 2] };

async function glmBehind() {
  const upstream = await harness.upstream({ format: 'openai', name: 'glm' });
  const leeway = await harness.leeway({
    connections: [openaiConnection('glm', upstream.url, { models: [MODEL] })],
  });
  const client = new Anthropic({ baseURL: leeway.url, apiKey: leeway.key, maxRetries: 0 });
  return { upstream, leeway, client };
}

type Json = Record<string, unknown>;
const bodyOf = (upstream: FakeUpstream, i = 0): Json => (upstream.requests[i]?.json ?? {}) as Json;

async function lastRow(leeway: RunningLeeway): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 2_000;
  for (;;) {
    const [row] = await activity(leeway);
    if (row || Date.now() > deadline) return row ?? {};
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('Anthropic SDK through Leeway to an OpenAI-compatible connection (issue 12)', () => {
  it('issue 12 §1: messages.stream with tools: text and a fragmented tool call arrive as text and tool_use blocks', async () => {
    const { upstream, leeway, client } = await glmBehind();
    upstream.enqueue({
      kind: 'tool-call',
      text: 'Let me look.',
      calls: [{ name: 'get_weather', input: CITY }],
      fragments: 5,
      usage: { input: 40, output: 15 },
    });
    const stream = client.messages.stream({
      model: MODEL,
      max_tokens: 256,
      system: 'You are a weather bot.',
      tools: [WEATHER_TOOL],
      tool_choice: { type: 'auto' },
      messages: [{ role: 'user', content: 'weather in Zürich?' }],
    });
    const partials: string[] = [];
    const events: string[] = [];
    stream.on('streamEvent', (event) => {
      events.push(event.type);
      if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') {
        partials.push(event.delta.partial_json);
      }
    });
    const final = await stream.finalMessage();

    expect(events[0]).toBe('message_start');
    expect(events.at(-1)).toBe('message_stop');
    expect(final.stop_reason).toBe('tool_use');
    expect(final.model).toBe(MODEL);
    expect(final.content).toEqual([
      expect.objectContaining({ type: 'text', text: 'Let me look.' }),
      expect.objectContaining({ type: 'tool_use', id: 'call_glm_1_0', name: 'get_weather', input: CITY }),
    ]);
    expect(partials.filter((p) => p !== '').length).toBeGreaterThan(1);
    expect(final.usage).toMatchObject({ input_tokens: 40, output_tokens: 15 });
    expect(stream.response?.headers.get('x-leeway-translated')).toBe('anthropic->openai');
    expect(stream.response?.headers.get('x-leeway-connection')).toBe('glm');

    const sent = upstream.requests[0];
    expect(sent?.path).toBe('/v1/chat/completions');
    expect(sent?.headers.authorization).toBe('Bearer sk-openai-secret-glm-0000');
    expect(sent?.headers['x-api-key']).toBeUndefined();
    expect(sent?.headers['anthropic-version']).toBeUndefined();
    const body = bodyOf(upstream);
    expect(body).toMatchObject({ model: MODEL, stream: true });
    const messages = body.messages as Json[];
    expect(messages[0]).toMatchObject({ role: 'system' });
    expect(JSON.stringify(messages[0])).toContain('You are a weather bot.');
    expect(messages[1]).toMatchObject({ role: 'user' });
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: expect.objectContaining({ name: 'get_weather', parameters: WEATHER_TOOL.input_schema }),
      },
    ]);
    expect(Number(body.max_tokens ?? body.max_completion_tokens)).toBe(256);
    expect(await lastRow(leeway)).toMatchObject({
      apiFormat: 'anthropic',
      endpoint: 'messages',
      connection: 'glm',
      status: 200,
      stream: true,
      translated: 'anthropic->openai',
    });
  });

  it('issue 12 §1: messages.create is answered from a chat.completion with end_turn and usage', async () => {
    const { upstream, client } = await glmBehind();
    upstream.enqueue({ kind: 'ok', text: 'plain from glm', usage: { input: 8, output: 3 } });
    const { data, response } = await client.messages
      .create({ model: MODEL, max_tokens: 32, messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(data).toMatchObject({ type: 'message', role: 'assistant', model: MODEL, stop_reason: 'end_turn' });
    expect(data.content).toEqual([expect.objectContaining({ type: 'text', text: 'plain from glm' })]);
    expect(data.usage).toMatchObject({ input_tokens: 8, output_tokens: 3 });
    expect(response.headers.get('x-leeway-translated')).toBe('anthropic->openai');
    expect(bodyOf(upstream).stream).not.toBe(true);
  });

  it('issue 12 §1: a plain stream yields every text delta and end_turn', async () => {
    const { upstream, client } = await glmBehind();
    upstream.enqueue({ kind: 'ok', text: 'streamed from glm in parts', usage: { input: 5, output: 6 }, deltas: 4 });
    const stream = client.messages.stream({
      model: MODEL,
      max_tokens: 32,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const deltas: string[] = [];
    stream.on('text', (delta) => deltas.push(delta));
    const final = await stream.finalMessage();
    expect(deltas.join('')).toBe('streamed from glm in parts');
    expect(deltas.length).toBeGreaterThan(1);
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage.output_tokens).toBe(6);
  });

  it('issue 12 §1: the tool_result turn reaches the upstream as an assistant tool_calls message and a tool message', async () => {
    const { upstream, client } = await glmBehind();
    upstream.enqueue({ kind: 'ok', text: 'It is sunny.' });
    const answer = await client.messages.create({
      model: MODEL,
      max_tokens: 64,
      tools: [WEATHER_TOOL],
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'call_abc', name: 'get_weather', input: CITY }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_abc', content: '{"sky":"sunny"}' }] },
      ],
    });
    expect(answer.content).toEqual([expect.objectContaining({ type: 'text', text: 'It is sunny.' })]);
    const messages = bodyOf(upstream).messages as Json[];
    const assistant = messages.find((m) => m.role === 'assistant');
    expect(assistant?.tool_calls).toEqual([
      expect.objectContaining({
        id: 'call_abc',
        type: 'function',
        function: expect.objectContaining({ name: 'get_weather' }),
      }),
    ]);
    const args = (assistant?.tool_calls as { function: { arguments: string } }[] | undefined)?.[0]?.function.arguments;
    expect(JSON.parse(args ?? 'null')).toEqual(CITY);
    const tool = messages.find((m) => m.role === 'tool');
    expect(tool).toMatchObject({ tool_call_id: 'call_abc' });
    expect(JSON.stringify(tool?.content)).toContain('sunny');
  });

  it('issue 12 §4: models.list in the Anthropic shape lists the OpenAI-compatible connection’s models', async () => {
    const { client } = await glmBehind();
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toContain(MODEL);
  });
});
