import OpenAI, { type APIError } from 'openai';
import { describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../fake-upstream';
import type { RunningLeeway } from '../start-leeway';
import { anthropicConnection, openaiConnection } from '../start-leeway';
import { activity, useClientHarness } from './client-harness';

/*
 * Issue 12: the official OpenAI SDK (Chat Completions and the Responses API) through Leeway to
 * an Anthropic connection: the request is translated to Messages, the answer back, stream or not.
 */
const harness = useClientHarness();
const MODEL = 'claude-sonnet-4-6';
const WEATHER_TOOL: OpenAI.ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};
const CITY = { city: 'Zürich "Altstadt"', days: [1, 2] };

async function anthropicBehind(extra: Record<string, unknown> = {}) {
  const upstream = await harness.upstream({ format: 'anthropic', name: 'claude' });
  const leeway = await harness.leeway({
    connections: [anthropicConnection('a1', upstream.url, { models: [MODEL], ...extra })],
  });
  const client = new OpenAI({ baseURL: `${leeway.url}/v1`, apiKey: leeway.key, maxRetries: 0 });
  return { upstream, leeway, client };
}

type Json = Record<string, unknown>;
const bodyOf = (upstream: FakeUpstream, i = 0): Json => (upstream.requests[i]?.json ?? {}) as Json;

/** The newest activity row once the answer's log write landed. */
async function lastRow(leeway: RunningLeeway): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 2_000;
  for (;;) {
    const [row] = await activity(leeway);
    if (row || Date.now() > deadline) return row ?? {};
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('OpenAI SDK through Leeway to an Anthropic connection (issue 12)', () => {
  it('issue 12 §1: chat.completions.create is answered from Messages, with usage, model and the translated header', async () => {
    const { upstream, leeway, client } = await anthropicBehind();
    upstream.enqueue({ kind: 'ok', text: 'answer from claude', usage: { input: 9, output: 2 } });
    const { data, response } = await client.chat.completions
      .create({
        model: MODEL,
        messages: [
          { role: 'system', content: 'You are terse.' },
          { role: 'user', content: 'hi' },
        ],
        max_tokens: 50,
        temperature: 0.2,
      })
      .withResponse();

    expect(data.object).toBe('chat.completion');
    expect(data.model).toBe(MODEL);
    expect(data.choices[0]?.message).toMatchObject({ role: 'assistant', content: 'answer from claude' });
    expect(data.choices[0]?.finish_reason).toBe('stop');
    expect(data.usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 });
    expect(response.headers.get('x-leeway-connection')).toBe('a1');
    expect(response.headers.get('x-leeway-translated')).toBe('openai->anthropic');

    const sent = upstream.requests[0];
    expect(sent?.path).toMatch(/^\/v1\/messages(\?|$)/);
    expect(sent?.headers['x-api-key']).toBe('sk-ant-secret-a1-0000');
    expect(sent?.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(sent?.headers.authorization).toBeUndefined();
    const body = bodyOf(upstream);
    expect(body).toMatchObject({ model: MODEL, max_tokens: 50, temperature: 0.2 });
    expect(JSON.stringify(body.system)).toContain('You are terse.');
    expect(body.messages).toHaveLength(1);
    expect(JSON.stringify(body.messages)).toContain('hi');
    expect(JSON.stringify(body.messages)).not.toContain('"system"');
    expect(await lastRow(leeway)).toMatchObject({
      apiFormat: 'openai',
      connection: 'a1',
      status: 200,
      translated: 'openai->anthropic',
    });
  });

  it('issue 12 §1: a request without max_tokens still reaches Anthropic with one (it is required there)', async () => {
    const { upstream, client } = await anthropicBehind();
    const completion = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.choices[0]?.message.content).toBe('Hello from claude.');
    expect(bodyOf(upstream).max_tokens).toEqual(expect.any(Number));
    expect(Number(bodyOf(upstream).max_tokens)).toBeGreaterThan(0);
  });

  it('issue 12 §1: a stream with include_usage yields the text deltas, finish_reason stop and the usage', async () => {
    const { upstream, leeway, client } = await anthropicBehind();
    upstream.enqueue({ kind: 'ok', text: 'streamed via anthropic', usage: { input: 21, output: 4 }, deltas: 4 });
    const { data: stream, response } = await client.chat.completions
      .create({
        model: MODEL,
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
        stream_options: { include_usage: true },
      })
      .withResponse();
    const deltas: string[] = [];
    let finish: string | null | undefined;
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (choice?.delta.content) deltas.push(choice.delta.content);
      finish = choice?.finish_reason ?? finish;
      usage = chunk.usage ?? usage;
    }
    expect(deltas.join('')).toBe('streamed via anthropic');
    expect(deltas.length).toBeGreaterThan(1);
    expect(finish).toBe('stop');
    expect(usage).toMatchObject({ prompt_tokens: 21, completion_tokens: 4 });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('x-leeway-translated')).toBe('openai->anthropic');
    expect(bodyOf(upstream).stream).toBe(true);
    expect(await lastRow(leeway)).toMatchObject({
      stream: true,
      inputTokens: 21,
      outputTokens: 4,
      translated: 'openai->anthropic',
    });
  });

  it('issue 12 §1: tools and a streamed tool_use with fragmented input_json_delta become assembled tool_calls', async () => {
    const { upstream, client } = await anthropicBehind();
    upstream.enqueue({
      kind: 'tool-call',
      text: 'Checking.',
      calls: [{ name: 'get_weather', input: CITY }],
      fragments: 5,
      usage: { input: 30, output: 12 },
    });
    const stream = client.chat.completions.stream({
      model: MODEL,
      messages: [{ role: 'user', content: 'weather in Zürich?' }],
      tools: [WEATHER_TOOL],
      tool_choice: 'auto',
      stream_options: { include_usage: true },
    });
    const argumentDeltas: string[] = [];
    for await (const chunk of stream) {
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) {
        if (call.function?.arguments) argumentDeltas.push(call.function.arguments);
      }
    }
    const final = await stream.finalChatCompletion();
    const choice = final.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBe('Checking.');
    const [call] = choice?.message.tool_calls ?? [];
    expect(call).toMatchObject({ id: 'toolu_claude_1_0', type: 'function', function: { name: 'get_weather' } });
    expect(call?.type === 'function' ? JSON.parse(call.function.arguments) : null).toEqual(CITY);
    // The fragments arrived as several deltas, not one re-serialised blob.
    expect(argumentDeltas.length).toBeGreaterThan(1);
    expect(final.usage).toMatchObject({ prompt_tokens: 30, completion_tokens: 12 });

    const body = bodyOf(upstream);
    expect(body.tools).toEqual([
      {
        name: 'get_weather',
        description: 'Current weather for a city',
        input_schema: WEATHER_TOOL.function.parameters,
      },
    ]);
    expect(body.tool_choice).toMatchObject({ type: 'auto' });
  });

  it('issue 12 §1: non-stream tool_calls, then the tool result turn reaches Anthropic as a tool_result for that id', async () => {
    const { upstream, client } = await anthropicBehind();
    upstream.enqueue({ kind: 'tool-call', calls: [{ name: 'get_weather', input: CITY }] });
    const first = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'weather?' }],
      tools: [WEATHER_TOOL],
    });
    const call = first.choices[0]?.message.tool_calls?.[0];
    expect(first.choices[0]?.finish_reason).toBe('tool_calls');
    expect(call?.type === 'function' ? [call.id, JSON.parse(call.function.arguments)] : null).toEqual([
      'toolu_claude_1_0',
      CITY,
    ]);

    upstream.enqueue({ kind: 'ok', text: 'It is sunny.' });
    const second = await client.chat.completions.create({
      model: MODEL,
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: null, tool_calls: first.choices[0]?.message.tool_calls ?? [] },
        { role: 'tool', tool_call_id: 'toolu_claude_1_0', content: '{"sky":"sunny"}' },
      ],
      tools: [WEATHER_TOOL],
    });
    expect(second.choices[0]?.message.content).toBe('It is sunny.');
    const messages = bodyOf(upstream, 1).messages as Json[];
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[1]?.content).toEqual([
      expect.objectContaining({ type: 'tool_use', id: 'toolu_claude_1_0', name: 'get_weather', input: CITY }),
    ]);
    expect(messages[2]?.content).toEqual([
      expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_claude_1_0' }),
    ]);
    expect(JSON.stringify(messages[2])).toContain('sunny');
  });

  it('issue 12 §4: models.list lists the Anthropic connection’s models to an OpenAI client', async () => {
    const { client } = await anthropicBehind();
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toContain(MODEL);
  });

  it('issue 12 §4: a connection with acceptTranslated false is not used for an OpenAI client', async () => {
    const { upstream, client } = await anthropicBehind({ acceptTranslated: false });
    const error = await client.chat.completions
      .create({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] })
      .then(
        () => null,
        (e: unknown) => e,
      );
    // Excluded as of the wrong format: nothing else can serve the model.
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect((error as APIError).code).toBe('no_executable_targets');
    expect(upstream.requests).toHaveLength(0);
  });
});

describe('OpenAI SDK Responses API through Leeway, translated (issue 12 §2)', () => {
  it('issue 12 §2: responses.create on an Anthropic connection: instructions become system, the answer a completed response', async () => {
    const { upstream, leeway, client } = await anthropicBehind();
    upstream.enqueue({ kind: 'ok', text: 'responses via claude', usage: { input: 14, output: 3 } });
    const { data, response } = await client.responses
      .create({ model: MODEL, instructions: 'Answer briefly.', input: 'hi', max_output_tokens: 40 })
      .withResponse();
    expect(data.status).toBe('completed');
    expect(data.output_text).toBe('responses via claude');
    expect(data.usage).toMatchObject({ input_tokens: 14, output_tokens: 3, total_tokens: 17 });
    expect(response.headers.get('x-leeway-translated')).toBe('responses->anthropic');
    const body = bodyOf(upstream);
    expect(upstream.requests[0]?.path).toMatch(/^\/v1\/messages(\?|$)/);
    expect(JSON.stringify(body.system)).toContain('Answer briefly.');
    expect(body.max_tokens).toBe(40);
    expect(JSON.stringify(body.messages)).toContain('hi');
    expect(await lastRow(leeway)).toMatchObject({ endpoint: 'responses', translated: 'responses->anthropic' });
  });

  it('issue 12 §2: responses.stream on an OpenAI-compatible connection yields the Responses events and a function call', async () => {
    const upstream = await harness.upstream({ format: 'openai', name: 'glm' });
    const leeway = await harness.leeway({
      connections: [openaiConnection('glm', upstream.url, { models: ['glm-4.6'] })],
    });
    const client = new OpenAI({ baseURL: `${leeway.url}/v1`, apiKey: leeway.key, maxRetries: 0 });
    upstream.enqueue({ kind: 'tool-call', calls: [{ name: 'get_weather', input: CITY }], fragments: 4 });
    const stream = client.responses.stream({
      model: 'glm-4.6',
      input: 'weather?',
      tools: [
        { type: 'function', name: 'get_weather', parameters: WEATHER_TOOL.function.parameters ?? null, strict: false },
      ],
    });
    const types: string[] = [];
    const argDeltas: string[] = [];
    stream.on('event', (event) => types.push(event.type));
    stream.on('response.function_call_arguments.delta', (event) => argDeltas.push(event.delta));
    const final = await stream.finalResponse();
    expect(types[0]).toBe('response.created');
    expect(types).toContain('response.output_item.added');
    expect(types.at(-1)).toBe('response.completed');
    expect(argDeltas.length).toBeGreaterThan(1);
    const [item] = final.output;
    expect(item).toMatchObject({ type: 'function_call', name: 'get_weather', call_id: 'call_glm_1_0' });
    expect(item?.type === 'function_call' ? JSON.parse(item.arguments) : null).toEqual(CITY);
    const body = bodyOf(upstream);
    expect(upstream.requests[0]?.path).toBe('/v1/chat/completions');
    expect(body).toMatchObject({ model: 'glm-4.6', stream: true });
    expect(body.tools).toEqual([
      expect.objectContaining({ type: 'function', function: expect.objectContaining({ name: 'get_weather' }) }),
    ]);
  });

  it('ROUTE-3: background: true is served synchronously with an x-leeway-warning header', async () => {
    const { upstream, leeway, client } = await anthropicBehind();
    upstream.enqueue({ kind: 'ok', text: 'not in the background' });
    const { data, response } = await client.responses
      .create({ model: MODEL, input: 'hi', background: true })
      .withResponse();
    expect(data.status).toBe('completed');
    expect(data.output_text).toBe('not in the background');
    expect(response.headers.get('x-leeway-warning')).toMatch(/background/i);
    expect(bodyOf(upstream).background).toBeUndefined();
    expect(leeway.logs.some((line) => /background/i.test(line))).toBe(true);
  });
});
