import { describe, expect, it } from 'vitest';
import type { Json, ResponseContext } from './translate-types';
import { chatResponseFromMessages } from './chat-response-from-messages';
import { deepFreeze, loadCases } from './golden-fixtures.testkit';

interface ResponseCase {
  name: string;
  context: ResponseContext;
  input: Json;
  expected: Json;
}

const context: ResponseContext = { clientModel: 'sonnet', idSeed: 'seed', request: {} };

describe('Anthropic message → Chat completion', () => {
  it.each(loadCases<ResponseCase>('chat-response-from-messages.json'))('issue 12 golden: $name', (c) => {
    expect(chatResponseFromMessages(deepFreeze(c.input), c.context)).toEqual(c.expected);
  });

  it('issue 12: several text blocks (split by citations) join without a separator; redacted thinking is left out', () => {
    const out = chatResponseFromMessages(
      {
        id: 'msg_1',
        content: [
          { type: 'redacted_thinking', data: 'x' },
          { type: 'text', text: 'The sky is ', citations: [] },
          { type: 'text', text: 'blue.' },
        ],
        stop_reason: 'end_turn',
        usage: { input_tokens: 1, output_tokens: 2 },
      },
      context,
    );
    const message = ((out.choices as Json[])[0] as Json).message as Json;
    expect(message.content).toBe('The sky is blue.');
    expect(message.reasoning_content).toBeUndefined();
  });

  it('issue 12: refusal → content_filter, pause_turn → stop, model_context_window_exceeded → length', () => {
    const finish = (stop_reason: string) =>
      ((chatResponseFromMessages({ content: [], stop_reason }, context).choices as Json[])[0] as Json).finish_reason;
    expect(finish('refusal')).toBe('content_filter');
    expect(finish('pause_turn')).toBe('stop');
    expect(finish('model_context_window_exceeded')).toBe('length');
  });
});
