import { describe, expect, it } from 'vitest';
import type { Json, RequestOptions, RequestTranslation } from './translate-types';
import { deepFreeze } from './golden-fixtures.testkit';
import { clientToolId, SKIP_SIGNATURE } from './gemini-ids';
import { geminiRequestFromChat } from './gemini-request-from-chat';
import { geminiRequestFromMessages } from './gemini-request-from-messages';

/** Chat and Anthropic requests → Gemini (an OpenAI or Anthropic client served by a Gemini connection). */
const options: RequestOptions = { model: 'gemini-2.5-pro', reasoning: true };

function fromChat(body: Json): RequestTranslation {
  return geminiRequestFromChat(deepFreeze(body), options);
}
function fromClaude(body: Json): RequestTranslation {
  return geminiRequestFromMessages(deepFreeze(body), options);
}
function bodyOf(result: RequestTranslation): Json {
  if (!result.ok) throw new Error(`refused ${result.refusal.field}: ${result.refusal.message}`);
  return result.body;
}
function refusedField(result: RequestTranslation): string | null {
  return result.ok ? null : result.refusal.field;
}
function droppedOf(result: RequestTranslation): string[] {
  return result.ok ? result.dropped : [];
}

describe('Chat request → Gemini request (issue 23 §1)', () => {
  it('issue 23 §1: model and stream stay out of the body (Gemini names them in the URL); developer messages are system', () => {
    const result = fromChat({
      model: 'gpt-5',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'developer', content: 'Rules.' },
        { role: 'user', content: 'hi' },
        { role: 'system', content: [{ type: 'text', text: 'More rules.' }] },
      ],
    });
    expect(bodyOf(result)).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      systemInstruction: { parts: [{ text: 'Rules.\n\nMore rules.' }] },
    });
    expect(droppedOf(result)).toEqual([]);
  });

  it('issue 23 §1: a signature comes back from the call id or from Google`s extra_content; a call without one gets the stand-in', () => {
    const signed = clientToolId('call_1', 'c2lnbmF0dXJl');
    const body = {
      model: 'g',
      messages: [
        { role: 'user', content: 'x' },
        {
          role: 'assistant',
          content: [
            { type: 'refusal', refusal: '' },
            { type: 'text', text: 'Sure.' },
          ],
          tool_calls: [{ id: signed, type: 'function', function: { name: 'f', arguments: '' } }],
        },
        { role: 'tool', tool_call_id: signed, content: 'r1' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_2',
              type: 'function',
              function: { name: 'g', arguments: '{"a":1}' },
              extra_content: { google: { thought_signature: 'Z29vZ2xl' } },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_2', content: 'r2' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_3', type: 'function', function: { name: 'h', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'call_3', content: 'r3' },
      ],
    };
    const contents = bodyOf(fromChat(body)).contents as Json[];
    const calls = contents
      .filter((c) => c.role === 'model')
      .map((c) => (c.parts as Json[]).find((p) => p.functionCall));
    expect(calls.map((p) => [asCall(p).id, p?.thoughtSignature])).toEqual([
      ['call_1', 'c2lnbmF0dXJl'],
      ['call_2', 'Z29vZ2xl'],
      ['call_3', SKIP_SIGNATURE],
    ]);
    const responses = contents.flatMap((c) => (c.parts as Json[]).filter((p) => p.functionResponse));
    expect(responses.map((p) => (p.functionResponse as Json).id)).toEqual(['call_1', 'call_2', 'call_3']);
  });

  it('issue 23 §1: reasoning_effort is a thinking budget with thoughts shown; none and minimal leave it to the model', () => {
    const config = (effort: string) => fromChat({ model: 'g', reasoning_effort: effort, messages: [] });
    expect(bodyOf(config('high')).generationConfig).toEqual({
      thinkingConfig: { thinkingBudget: 16384, includeThoughts: true },
    });
    expect(bodyOf(config('none')).generationConfig).toBeUndefined();
    expect(droppedOf(config('minimal'))).toEqual(['reasoning_effort']);
    expect(refusedField(config('extreme'))).toBe('reasoning_effort');
  });

  it('issue 23 §1: refused: legacy functions, logprobs, audio, bad arguments, unknown roles and tool types', () => {
    const cases: [Json, string][] = [
      [{ functions: [{ name: 'f' }], messages: [] }, 'functions'],
      [{ logprobs: true, messages: [] }, 'logprobs'],
      [{ modalities: ['text', 'audio'], messages: [] }, 'modalities'],
      [{ response_format: { type: 'grammar' }, messages: [] }, 'response_format.type'],
      [{ tools: [{ type: 'custom', custom: { name: 'x' } }], messages: [] }, 'tools[0].type'],
      [
        {
          tools: [{ type: 'function', function: { name: 'f' } }],
          tool_choice: { type: 'allowed_tools' },
          messages: [],
        },
        'tool_choice',
      ],
      [{ messages: [{ role: 'function', content: 'x' }] }, 'messages[0].role'],
      [
        {
          messages: [
            {
              role: 'assistant',
              tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '[1]' } }],
            },
          ],
        },
        'messages[0].tool_calls[0].function.arguments',
      ],
      [
        { messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: {} }] }] },
        'messages[0].content[0].type',
      ],
    ];
    for (const [body, field] of cases) expect(refusedField(fromChat({ model: 'g', ...body })), field).toBe(field);
  });
});

describe('Anthropic request → Gemini request (issue 23 §1)', () => {
  it('issue 23 §1: thinking: a budget shows thoughts, adaptive lets the model decide, disabled is dropped', () => {
    const config = (thinking: Json) => fromClaude({ model: 'c', max_tokens: 100, thinking, messages: [] });
    expect(bodyOf(config({ type: 'enabled', budget_tokens: 2048 })).generationConfig).toEqual({
      maxOutputTokens: 100,
      thinkingConfig: { thinkingBudget: 2048, includeThoughts: true },
    });
    expect(bodyOf(config({ type: 'adaptive' })).generationConfig).toEqual({
      maxOutputTokens: 100,
      thinkingConfig: { includeThoughts: true },
    });
    expect(droppedOf(config({ type: 'disabled' }))).toEqual(['thinking']);
  });

  it('issue 23 §1: an assistant turn of thinking only goes; string content and tool_choice none map', () => {
    const result = fromClaude({
      model: 'c',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: [{ type: 'redacted_thinking', data: 'xyz' }] },
        { role: 'user', content: 'again' },
      ],
      tools: [{ name: 'f', input_schema: { type: 'object' } }],
      tool_choice: { type: 'none' },
    });
    expect(bodyOf(result).contents).toEqual([{ role: 'user', parts: [{ text: 'q' }, { text: 'again' }] }]);
    expect(bodyOf(result).toolConfig).toEqual({ functionCallingConfig: { mode: 'NONE' } });
    expect(droppedOf(result)).toEqual(expect.arrayContaining(['redacted_thinking blocks', 'empty assistant messages']));
  });

  it('issue 23 §1: refused: containers, MCP servers, non-text system blocks, unknown blocks and formats', () => {
    const cases: [Json, string][] = [
      [{ container: 'c1' }, 'container'],
      [{ mcp_servers: [{ url: 'https://x' }] }, 'mcp_servers'],
      [{ system: [{ type: 'image' }] }, 'system[0].type'],
      [{ messages: [{ role: 'user', content: [{ type: 'search_result' }] }] }, 'messages[0].content[0].type'],
      [{ messages: [{ role: 'assistant', content: [{ type: 'server_tool_use' }] }] }, 'messages[0].content[0].type'],
      [{ output_config: { format: { type: 'regex' } } }, 'output_config.format.type'],
    ];
    for (const [body, field] of cases) {
      expect(refusedField(fromClaude({ model: 'c', max_tokens: 5, messages: [], ...body })), field).toBe(field);
    }
  });
});

function asCall(part: Json | undefined): Json {
  return (part?.functionCall ?? {}) as Json;
}
