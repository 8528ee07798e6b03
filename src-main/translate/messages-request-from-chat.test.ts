import { describe, expect, it } from 'vitest';
import type { Json, RequestOptions, RequestTranslation } from './translate-types';
import { deepFreeze, loadCases } from './golden-fixtures.testkit';
import { DEFAULT_MAX_TOKENS, messagesRequestFromChat } from './messages-request-from-chat';

interface RequestCase {
  name: string;
  options: RequestOptions;
  input: Json;
  expected: { body: Json; dropped: string[] } | { refusal: { field: string; message: string } };
}

const options: RequestOptions = { model: 'claude-sonnet-4-5', reasoning: true };

function translate(body: Json): RequestTranslation {
  return messagesRequestFromChat(deepFreeze(body), options);
}

function refusalField(body: Json): string | null {
  const result = translate(body);
  return result.ok ? null : result.refusal.field;
}

describe('Chat Completions request → Anthropic Messages request', () => {
  it.each(loadCases<RequestCase>('messages-request-from-chat.json'))('issue 12 golden: $name', (c) => {
    const result = messagesRequestFromChat(deepFreeze(c.input), c.options);
    if ('refusal' in c.expected) {
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.refusal.field).toBe(c.expected.refusal.field);
      return;
    }
    expect(result).toEqual({ ok: true, body: c.expected.body, dropped: c.expected.dropped });
  });

  it(`issue 12: max_tokens defaults to ${DEFAULT_MAX_TOKENS}; max_completion_tokens wins over max_tokens`, () => {
    const base = { model: 'gpt', messages: [{ role: 'user', content: 'hi' }] };
    expect(translate(base).ok && (translate(base) as { body: Json }).body.max_tokens).toBe(DEFAULT_MAX_TOKENS);
    const both = translate({ ...base, max_tokens: 10, max_completion_tokens: 20 });
    expect(both.ok && both.body.max_tokens).toBe(20);
  });

  it('issue 12: reasoning_effort high with a small max_tokens keeps the answer room above the 16384 budget', () => {
    const result = translate({
      model: 'gpt',
      max_tokens: 500,
      top_p: 0.5,
      reasoning_effort: 'high',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(result.ok && result.body.thinking).toEqual({ type: 'enabled', budget_tokens: 16384 });
    expect(result.ok && result.body.max_tokens).toBe(16884);
    expect(result.ok && result.body.top_p).toBeUndefined();
    expect(result.ok && result.dropped).toContain('top_p');
  });

  it('issue 12: reasoning_effort with a forced tool drops the thinking (Anthropic refuses both); minimal means none', () => {
    const forced = translate({
      model: 'gpt',
      reasoning_effort: 'low',
      tools: [{ type: 'function', function: { name: 'f' } }],
      tool_choice: 'required',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(forced.ok && forced.body.thinking).toBeUndefined();
    expect(forced.ok && forced.dropped).toContain('reasoning_effort');
    const minimal = translate({
      model: 'gpt',
      reasoning_effort: 'minimal',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(minimal.ok && minimal.body.thinking).toBeUndefined();
  });

  it('issue 12: an assistant turn with only empty content is left out and the user turns around it merge', () => {
    const result = translate({
      model: 'gpt',
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: '' },
        { role: 'user', content: [{ type: 'text', text: 'b' }] },
      ],
    });
    expect(result.ok && result.body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
    ]);
    expect(result.ok && result.dropped).toContain('empty assistant messages');
  });

  it('issue 12: empty tool arguments mean no input; a tool_choice without tools is dropped', () => {
    const result = translate({
      model: 'gpt',
      tool_choice: 'auto',
      messages: [
        { role: 'user', content: 'a' },
        {
          role: 'assistant',
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'now', arguments: '' } }],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '12:00' },
      ],
    });
    expect(result.ok && result.body.messages).toEqual([
      { role: 'user', content: 'a' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'now', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: '12:00' }] },
    ]);
    expect(result.ok && result.body.tool_choice).toBeUndefined();
  });

  it('issue 12: refuses, naming the field, what would change the answer', () => {
    const msgs = [{ role: 'user', content: 'hi' }];
    expect(refusalField({ model: 'g', messages: msgs, response_format: { type: 'json_object' } })).toBe(
      'response_format.type',
    );
    expect(refusalField({ model: 'g', messages: msgs, top_logprobs: 3 })).toBe('top_logprobs');
    expect(refusalField({ model: 'g', messages: msgs, functions: [{ name: 'f' }] })).toBe('functions');
    expect(refusalField({ model: 'g', messages: msgs, tools: [{ type: 'custom', custom: { name: 'x' } }] })).toBe(
      'tools[0].type',
    );
    expect(
      refusalField({
        model: 'g',
        messages: [
          { role: 'assistant', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '[1]' } }] },
        ],
      }),
    ).toBe('messages[0].tool_calls[0].function.arguments');
    expect(
      refusalField({
        model: 'g',
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'ftp://x' } }] }],
      }),
    ).toBe('messages[0].content[0].image_url.url');
    expect(refusalField({ model: 'g', messages: [{ role: 'tool', content: 'x' }] })).toBe('messages[0].tool_call_id');
  });

  it('issue 12: other sampling fields Anthropic lacks are dropped and named, not refused', () => {
    const result = translate({
      model: 'g',
      messages: [{ role: 'user', content: 'x' }],
      seed: 1,
      presence_penalty: 0.5,
    });
    expect(result.ok && [...result.dropped].sort()).toEqual(['presence_penalty', 'seed']);
  });
});
