import { MessageStream } from '@anthropic-ai/sdk/lib/MessageStream';
import { describe, expect, it } from 'vitest';
import type { ResponseContext, SseOut } from './translate-types';
import {
  anthropicGrammarViolation,
  fromWire,
  jsonLines,
  loadCases,
  runStream,
  toWire,
  type StoredEvent,
} from './golden-fixtures.testkit';
import { messagesStreamFromChat } from './messages-stream-from-chat';

interface StreamCase {
  name: string;
  context: ResponseContext;
  input: StoredEvent[];
  expected: StoredEvent[];
}

const cases = loadCases<StreamCase>('messages-stream-from-chat.json');
const context: ResponseContext = { clientModel: 'claude-sonnet-4-5', idSeed: 'seed', request: {} };

function chunk(delta: object | null, finish: string | null = null, extra: object = {}): SseOut {
  const choices = delta === null ? [] : [{ index: 0, delta, finish_reason: finish }];
  return {
    event: null,
    data: JSON.stringify({ id: 'chatcmpl-9', object: 'chat.completion.chunk', choices, ...extra }),
  };
}
const DONE: SseOut = { event: null, data: '[DONE]' };

function translate(input: SseOut[], ctx: ResponseContext = context): SseOut[] {
  return runStream(messagesStreamFromChat, ctx, input);
}

describe('Chat stream → Anthropic stream events', () => {
  it.each(cases)('issue 12 golden: $name', (c) => {
    const out = translate(c.input.map(toWire), c.context);
    expect(out.map(fromWire)).toEqual(c.expected);
  });

  it.each(cases)('issue 12: golden output keeps Anthropic event grammar: $name', (c) => {
    expect(anthropicGrammarViolation(translate(c.input.map(toWire), c.context))).toBeNull();
  });

  it('issue 12: the Anthropic SDK assembles the translated tool-call stream into the final message', async () => {
    const toolCase = cases.find((c) => c.name.startsWith('text then two tool calls'));
    expect(toolCase).toBeDefined();
    if (!toolCase) return;
    const events = translate(toolCase.input.map(toWire), toolCase.context);
    const message = await MessageStream.fromReadableStream(jsonLines(events)).finalMessage();
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toEqual([
      { type: 'text', text: 'Checking.' },
      { type: 'tool_use', id: 'call_abc', name: 'get_weather', input: { city: 'Paris' } },
      { type: 'tool_use', id: 'call_def', name: 'get_weather', input: { city: 'Rome' } },
    ]);
    expect(message.usage.input_tokens).toBe(56);
    expect(message.usage.cache_read_input_tokens).toBe(64);
    expect(message.usage.output_tokens).toBe(40);
  });

  it('issue 12: a tool call whose chunks carry no index is followed by its id, then by the open call', () => {
    const out = translate([
      chunk({ role: 'assistant', tool_calls: [{ id: 'call_x', function: { name: 'f', arguments: '{"a"' } }] }),
      chunk({ tool_calls: [{ function: { arguments: ':1}' } }] }),
      chunk({}, 'tool_calls'),
      DONE,
    ]);
    const json = out
      .map(fromWire)
      .filter((e) => e.event === 'content_block_delta')
      .map((e) => (e.data as { delta: { partial_json: string } }).delta.partial_json)
      .join('');
    expect(json).toBe('{"a":1}');
    expect(anthropicGrammarViolation(out)).toBeNull();
  });

  it('issue 12: a whole tool call in one chunk (Gemini-style) is one block with its arguments', () => {
    const out = translate([
      chunk(
        { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        'tool_calls',
      ),
      DONE,
    ]).map(fromWire);
    expect(out.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
  });

  it('issue 12: [DONE] with nothing before it still gives a complete, empty message', () => {
    const out = translate([DONE]);
    expect(out.map((e) => e.event)).toEqual(['message_start', 'message_delta', 'message_stop']);
    expect(anthropicGrammarViolation(out)).toBeNull();
  });

  it('issue 12: nothing is produced after the terminal events, and end() adds nothing more', () => {
    const translator = messagesStreamFromChat(context);
    translator.push(null, chunk({ content: 'a' }, 'stop').data);
    expect(translator.push(null, '[DONE]').map((e) => e.event)).toEqual(['message_delta', 'message_stop']);
    expect(translator.push(null, chunk({ content: 'late' }).data)).toEqual([]);
    expect(translator.end()).toEqual([]);
  });

  it('issue 12: a stop sequence named by the server (vLLM) comes back as stop_sequence', () => {
    const ctx = { ...context, request: { stop_sequences: ['END'] } };
    const out = translate([chunk({ content: 'x' }), chunk({}, 'stop', {}), DONE], ctx);
    expect(JSON.parse(out[out.length - 2]?.data ?? '{}').delta.stop_reason).toBe('end_turn');
    const named = translate(
      [
        chunk({ content: 'x' }),
        {
          event: null,
          data: JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop', stop_reason: 'END' }] }),
        },
        DONE,
      ],
      ctx,
    );
    expect(JSON.parse(named[named.length - 2]?.data ?? '{}').delta).toEqual({
      stop_reason: 'stop_sequence',
      stop_sequence: 'END',
    });
  });

  it('issue 12: choices other than index 0 (n > 1) and unparsable lines are ignored', () => {
    const out = translate([
      { event: null, data: JSON.stringify({ choices: [{ index: 1, delta: { content: 'other' } }] }) },
      { event: null, data: 'not json' },
      chunk({ content: 'mine' }, 'stop'),
      DONE,
    ]).map(fromWire);
    const texts = out.filter((e) => e.event === 'content_block_delta').map((e) => JSON.stringify(e.data));
    expect(texts).toHaveLength(1);
    expect(texts[0]).toContain('mine');
  });
});
