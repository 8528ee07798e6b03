import { describe, expect, it } from 'vitest';
import { usefulOutputOf, utf8Length } from './useful-output';

const chat = (delta: unknown) => JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta }] });

describe('useful output of one SSE event', () => {
  it('WATCH-4: Anthropic text_delta counts its UTF-8 bytes; ping, message_delta usage and [DONE] count 0', () => {
    const delta = { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'héllo' } };
    expect(usefulOutputOf('content_block_delta', JSON.stringify(delta))).toEqual({ bytes: 6, protectedPhase: false });
    expect(usefulOutputOf('ping', '{"type":"ping"}')).toEqual({ bytes: 0, protectedPhase: false });
    const usage = { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9 } };
    expect(usefulOutputOf('message_delta', JSON.stringify(usage)).bytes).toBe(0);
    expect(usefulOutputOf(null, '[DONE]').bytes).toBe(0);
    expect(usefulOutputOf(null, 'not json').bytes).toBe(0);
  });

  it('WATCH-4: Chat Completions delta.content counts; empty and usage-only chunks count 0', () => {
    expect(usefulOutputOf(null, chat({ content: 'abc' }))).toEqual({ bytes: 3, protectedPhase: false });
    expect(usefulOutputOf(null, chat({ content: '' }))).toEqual({ bytes: 0, protectedPhase: false });
    expect(usefulOutputOf(null, JSON.stringify({ choices: [], usage: { completion_tokens: 4 } })).bytes).toBe(0);
  });

  it('WATCH-4: Responses output_text.delta "hello" counts 5 bytes', () => {
    const event = { type: 'response.output_text.delta', delta: 'hello' };
    expect(usefulOutputOf('response.output_text.delta', JSON.stringify(event))).toEqual({
      bytes: 5,
      protectedPhase: false,
    });
  });

  it('WATCH-4: tool-call arguments and reasoning mark the protected phase and count 0', () => {
    const toolStart = {
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'tool_use', id: 't', name: 'x' },
    };
    const args = { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"a' } };
    const thinking = { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } };
    for (const e of [toolStart, args, thinking])
      expect(usefulOutputOf(e.type, JSON.stringify(e))).toEqual({ bytes: 0, protectedPhase: true });
    expect(usefulOutputOf(null, chat({ tool_calls: [{ index: 0, function: { arguments: '{"q' } }] }))).toEqual({
      bytes: 0,
      protectedPhase: true,
    });
    expect(usefulOutputOf(null, chat({ reasoning_content: 'step 1' })).protectedPhase).toBe(true);
    const fnArgs = { type: 'response.function_call_arguments.delta', delta: '{"q":' };
    expect(usefulOutputOf(fnArgs.type, JSON.stringify(fnArgs))).toEqual({ bytes: 0, protectedPhase: true });
  });

  it('WATCH-4: UTF-8 length counts 1 to 4 bytes per code point', () => {
    expect(utf8Length('a')).toBe(1);
    expect(utf8Length('é')).toBe(2);
    expect(utf8Length('€')).toBe(3);
    expect(utf8Length('😀')).toBe(4);
  });
});
