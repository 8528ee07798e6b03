import { describe, expect, it } from 'vitest';
import type { Json, ResponseContext } from './translate-types';
import { deepFreeze, loadCases } from './golden-fixtures.testkit';
import { messagesResponseFromChat } from './messages-response-from-chat';

interface ResponseCase {
  name: string;
  context: ResponseContext;
  input: Json;
  expected: Json;
}

const context: ResponseContext = { clientModel: 'claude-sonnet-4-5', idSeed: 'seed', request: {} };

function completion(message: Json, extra: Json = {}): Json {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    choices: [{ index: 0, message, finish_reason: 'stop', ...extra }],
  };
}

describe('Chat completion → Anthropic message', () => {
  it.each(loadCases<ResponseCase>('messages-response-from-chat.json'))('issue 12 golden: $name', (c) => {
    expect(messagesResponseFromChat(deepFreeze(c.input), c.context)).toEqual(c.expected);
  });

  it('issue 12: a named stop the client did not ask for is not reported as stop_sequence', () => {
    const out = messagesResponseFromChat(completion({ content: 'x' }, { stop_reason: 'eos' }), {
      ...context,
      request: { stop_sequences: ['###'] },
    });
    expect(out.stop_reason).toBe('end_turn');
    expect(out.stop_sequence).toBeNull();
  });

  it('issue 12: tool arguments that do not parse become an empty input rather than a broken answer', () => {
    const out = messagesResponseFromChat(
      completion({ tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":' } }] }),
      context,
    );
    expect(out.content).toEqual([{ type: 'tool_use', id: 'call_1', name: 'f', input: {} }]);
  });

  it('issue 12: OpenRouter-style `reasoning`, content parts and a refusal become thinking and text', () => {
    const out = messagesResponseFromChat(
      completion({ reasoning: 'hmm', content: [{ type: 'text', text: 'a' }], refusal: 'no' }),
      context,
    );
    expect(out.content).toEqual([
      { type: 'thinking', thinking: 'hmm', signature: '' },
      { type: 'text', text: 'ano' },
    ]);
  });

  it('issue 12: a body without id, choices or usage still gives a well-formed message', () => {
    expect(messagesResponseFromChat({}, context)).toEqual({
      id: 'msg_seed',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
  });
});
