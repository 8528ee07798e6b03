import { ChatCompletionStream } from 'openai/lib/ChatCompletionStream';
import { describe, expect, it } from 'vitest';
import type { ResponseContext, SseOut } from './translate-types';
import { chatStreamFromMessages } from './chat-stream-from-messages';
import { fromWire, jsonLines, loadCases, runStream, toWire, type StoredEvent } from './golden-fixtures.testkit';

interface StreamCase {
  name: string;
  context: ResponseContext;
  input: StoredEvent[];
  expected: StoredEvent[];
}

const cases = loadCases<StreamCase>('chat-stream-from-messages.json');
const context: ResponseContext = { clientModel: 'sonnet', idSeed: 'seed', request: {} };

function event(type: string, payload: object = {}): SseOut {
  return { event: type, data: JSON.stringify({ type, ...payload }) };
}

describe('Anthropic stream events → Chat stream chunks', () => {
  it.each(cases)('issue 12 golden: $name', (c) => {
    expect(runStream(chatStreamFromMessages, c.context, c.input.map(toWire)).map(fromWire)).toEqual(c.expected);
  });

  it('issue 12: every translated line is data-only (no event name), and [DONE] comes last and once', () => {
    for (const c of cases) {
      const out = runStream(chatStreamFromMessages, c.context, c.input.map(toWire));
      expect(out.every((e) => e.event === null)).toBe(true);
      const done = out.filter((e) => e.data === '[DONE]');
      expect(done.length).toBeLessThanOrEqual(1);
      if (done.length === 1) expect(out[out.length - 1]?.data).toBe('[DONE]');
    }
  });

  it('issue 12: the OpenAI SDK assembles the translated tool-call stream into the final completion', async () => {
    const toolCase = cases.find((c) => c.name.startsWith('text then tool_use'));
    expect(toolCase).toBeDefined();
    if (!toolCase) return;
    const out = runStream(chatStreamFromMessages, toolCase.context, toolCase.input.map(toWire));
    const completion = await ChatCompletionStream.fromReadableStream(jsonLines(out)).finalChatCompletion();
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBe('Checking.');
    expect(
      choice?.message.tool_calls?.map((call) => call.type === 'function' && [call.id, call.function.arguments]),
    ).toEqual([
      ['toolu_01T1x1fJ34qAmk2tNTrN7Up6', '{"city": "Paris"}'],
      ['toolu_02', '{"city": "Rome"}'],
    ]);
  });

  it('issue 12: the event name is read from the payload when the SSE line had none', () => {
    const out = runStream(chatStreamFromMessages, context, [
      {
        event: null,
        data: JSON.stringify({ type: 'message_start', message: { id: 'msg_7', usage: { input_tokens: 3 } } }),
      },
      {
        event: null,
        data: JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'x' } }),
      },
    ]);
    expect(out.map(fromWire).map((e) => (e.data as { id: string }).id)).toEqual(['chatcmpl-7', 'chatcmpl-7']);
  });

  it('issue 12: a stream cut after message_delta is closed by end() with usage and [DONE]', () => {
    const ctx = { ...context, request: { stream_options: { include_usage: true } } };
    const translator = chatStreamFromMessages(ctx);
    translator.push(
      'message_start',
      event('message_start', { message: { id: 'msg_1', usage: { input_tokens: 4 } } }).data,
    );
    translator.push(
      'message_delta',
      event('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } }).data,
    );
    const closing = translator.end().map(fromWire);
    expect(closing).toEqual([
      {
        event: null,
        data: {
          id: 'chatcmpl-1',
          object: 'chat.completion.chunk',
          created: 0,
          model: 'sonnet',
          choices: [],
          usage: {
            prompt_tokens: 4,
            completion_tokens: 2,
            total_tokens: 6,
            prompt_tokens_details: { cached_tokens: 0 },
          },
        },
      },
      { event: null, data: '[DONE]' },
    ]);
    expect(translator.end()).toEqual([]);
  });

  it('issue 12: a tool_use block that arrives with its input whole sends that input as the arguments', () => {
    const out = runStream(chatStreamFromMessages, context, [
      event('message_start', { message: { id: 'msg_1' } }),
      event('content_block_start', {
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'f', input: { a: 1 } },
      }),
    ]).map(fromWire);
    type ToolChunk = { choices: { delta: { tool_calls: { function: { arguments: string } }[] } }[] };
    const delta = (out[1]?.data as ToolChunk).choices[0]?.delta;
    expect(delta?.tool_calls[0]?.function.arguments).toBe('{"a":1}');
  });
});
