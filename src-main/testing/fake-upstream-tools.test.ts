import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from './fake-upstream';
import { splitOddly } from './fake-upstream-plans';

// Tool-call answers in both wire formats, judged by the official SDKs and by the raw frames.
const started: FakeUpstream[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((u) => u.close()));
});

async function start(format: 'anthropic' | 'openai'): Promise<FakeUpstream> {
  const upstream = await startFakeUpstream({ format, name: 'tools' });
  started.push(upstream);
  return upstream;
}

const userMessage = [{ role: 'user' as const, content: 'weather?' }];
const INPUT = { city: 'Zürich "old town"', days: [1, 2], nested: { ok: true } };

function sseData(body: string): unknown[] {
  return body
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice(6)) as unknown);
}

describe('fake upstream: tool calls', () => {
  it('splitOddly cuts inside the first key and never loses a character', () => {
    const json = JSON.stringify(INPUT);
    const pieces = splitOddly(json, 5);
    expect(pieces).toHaveLength(5);
    expect(pieces.join('')).toBe(json);
    expect(pieces[0]).toBe('{"');
    expect(pieces.filter((p) => p === '')).toHaveLength(0);
    expect(splitOddly('{}', 4).join('')).toBe('{}');
  });

  it('Anthropic: the SDK reads a tool_use Message and assembles a streamed one from input_json_delta fragments', async () => {
    const up = await start('anthropic');
    const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: up.url, maxRetries: 0 });
    const call = { name: 'lookup', input: INPUT };
    up.enqueue({ kind: 'tool-call', calls: [call], text: 'Let me check.', usage: { input: 9, output: 7 } });
    const message = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 64, messages: userMessage });
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toEqual([
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_use', id: 'toolu_tools_1_0', name: 'lookup', input: INPUT },
    ]);

    up.enqueue({
      kind: 'tool-call',
      calls: [call, { name: 'second', input: { a: 1 }, id: 'toolu_fixed' }],
      fragments: 6,
    });
    const stream = client.messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 64, messages: userMessage });
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe('tool_use');
    expect(final.content).toEqual([
      { type: 'tool_use', id: 'toolu_tools_2_0', name: 'lookup', input: INPUT },
      { type: 'tool_use', id: 'toolu_fixed', name: 'second', input: { a: 1 } },
    ]);
    const partials = sseData(up.requests[1]?.response?.body ?? '')
      .map((e) => (e as { delta?: { partial_json?: string } }).delta?.partial_json)
      .filter((p): p is string => p !== undefined);
    expect(partials[0]).toBe('');
    expect(partials.length).toBeGreaterThan(6);
    expect(partials.some((p) => p !== '' && !isJson(p))).toBe(true);
  });

  it('OpenAI: the SDK reads tool_calls and assembles streamed arguments fragments by index', async () => {
    const up = await start('openai');
    const client = new OpenAI({ apiKey: 'sk-test', baseURL: `${up.url}/v1`, maxRetries: 0 });
    up.enqueue({ kind: 'tool-call', calls: [{ name: 'lookup', input: INPUT }] });
    const completion = await client.chat.completions.create({ model: 'gpt-4o', messages: userMessage });
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBeNull();
    expect(choice?.message.tool_calls).toEqual([
      { id: 'call_tools_1_0', type: 'function', function: { name: 'lookup', arguments: JSON.stringify(INPUT) } },
    ]);

    up.enqueue({
      kind: 'tool-call',
      text: 'Checking.',
      calls: [
        { name: 'lookup', input: INPUT },
        { name: 'other', input: { b: [true] } },
      ],
      usage: { input: 5, output: 8 },
    });
    const stream = client.chat.completions.stream({
      model: 'gpt-4o',
      messages: userMessage,
      stream_options: { include_usage: true },
    });
    const final = await stream.finalChatCompletion();
    const message = final.choices[0]?.message;
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
    expect(message?.content).toBe('Checking.');
    expect(
      message?.tool_calls?.map((c) => (c.type === 'function' ? [c.id, c.function.name, c.function.arguments] : [])),
    ).toEqual([
      ['call_tools_2_0', 'lookup', JSON.stringify(INPUT)],
      ['call_tools_2_1', 'other', '{"b":[true]}'],
    ]);
    expect(final.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 8 });
    const fragments = sseData(up.requests[1]?.response?.body ?? '').flatMap((chunk) => {
      const calls = (chunk as { choices?: { delta?: { tool_calls?: { index: number; id?: string }[] } }[] })
        .choices?.[0]?.delta?.tool_calls;
      return calls ?? [];
    });
    // A header chunk with the id per call, then id-less fragments that only carry the index.
    expect(fragments.filter((f) => f.id !== undefined).map((f) => f.index)).toEqual([0, 1]);
    expect(fragments.filter((f) => f.id === undefined && f.index === 0).length).toBe(4);
  });
});

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
