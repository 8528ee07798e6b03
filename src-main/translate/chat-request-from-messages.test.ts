import { describe, expect, it } from 'vitest';
import type { Json, RequestOptions, RequestTranslation } from './translate-types';
import { chatRequestFromMessages } from './chat-request-from-messages';
import { deepFreeze, loadCases } from './golden-fixtures.testkit';

interface RequestCase {
  name: string;
  options: RequestOptions;
  input: Json;
  expected: { body: Json; dropped: string[] } | { refusal: { field: string; message: string } };
}

const options: RequestOptions = { model: 'glm-4.6', reasoning: false };

function translate(body: Json, opts: RequestOptions = options): RequestTranslation {
  return chatRequestFromMessages(deepFreeze(body), opts);
}

describe('Anthropic Messages request → Chat Completions request', () => {
  it.each(loadCases<RequestCase>('chat-request-from-messages.json'))('issue 12 golden: $name', (c) => {
    const result = translate(c.input, c.options);
    if ('refusal' in c.expected) {
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.refusal.field).toBe(c.expected.refusal.field);
        expect(result.refusal.message.length).toBeGreaterThan(0);
      }
      return;
    }
    expect(result).toEqual({ ok: true, body: c.expected.body, dropped: c.expected.dropped });
  });

  it('issue 12: the upstream model replaces the client model; unknown top-level fields are dropped and named', () => {
    const result = translate({
      model: 'claude-opus-4-1',
      max_tokens: 5,
      service_tier: 'auto',
      context_management: { edits: [] },
      metadata: { user_id: 'u', extra: 1 },
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(result.ok && result.body.model).toBe('glm-4.6');
    expect(result.ok && result.body.user).toBe('u');
    expect(result.ok && [...result.dropped].sort()).toEqual(['context_management', 'metadata.extra', 'service_tier']);
  });

  it('issue 12: images inside a tool_result move to the user message after the tool messages', () => {
    const result = translate({
      model: 'm',
      max_tokens: 5,
      messages: [
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'a.png' } }],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_1',
              content: [
                { type: 'text', text: 'an image' },
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
              ],
            },
          ],
        },
      ],
    });
    expect(result.ok && result.body.messages).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'toolu_1', type: 'function', function: { name: 'Read', arguments: '{"file_path":"a.png"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'an image' },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] },
    ]);
  });

  it('issue 12: a non-stream request gets no stream fields; an empty system is left out', () => {
    const result = translate({ model: 'm', max_tokens: 5, system: '', messages: [{ role: 'user', content: 'x' }] });
    expect(result.ok && result.body).toEqual({
      model: 'glm-4.6',
      messages: [{ role: 'user', content: 'x' }],
      max_tokens: 5,
    });
  });

  it('issue 12: a tool_choice without tools is dropped and named (OpenAI refuses it)', () => {
    const result = translate({ model: 'm', max_tokens: 5, tool_choice: { type: 'auto' }, messages: [] });
    expect(result.ok && result.body.tool_choice).toBeUndefined();
    expect(result.ok && result.dropped).toEqual(['tool_choice']);
  });

  it('issue 12: a role:"system" message in the conversation stays in place as a system message', () => {
    const result = translate({
      model: 'm',
      max_tokens: 5,
      messages: [
        { role: 'user', content: 'a' },
        { role: 'system', content: [{ type: 'text', text: 'be terse' }] },
        { role: 'user', content: 'b' },
      ],
    });
    expect(result.ok && result.body.messages).toEqual([
      { role: 'user', content: 'a' },
      { role: 'system', content: 'be terse' },
      { role: 'user', content: 'b' },
    ]);
  });

  it('issue 12: refuses with the field named for a non-text system block, a bad role and missing messages', () => {
    const refusalOf = (body: Json) => {
      const r = translate(body);
      return r.ok ? null : r.refusal.field;
    };
    expect(refusalOf({ model: 'm', system: [{ type: 'text', text: 'a' }, { type: 'image' }], messages: [] })).toBe(
      'system[1].type',
    );
    expect(refusalOf({ model: 'm', messages: [{ role: 'tool', content: 'x' }] })).toBe('messages[0].role');
    expect(refusalOf({ model: 'm' })).toBe('messages');
    expect(refusalOf({ model: 'm', output_config: { format: { type: 'json_schema' } }, messages: [] })).toBe(
      'output_config.format',
    );
  });
});
