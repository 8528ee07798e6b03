import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type {
  Json,
  RequestOptions,
  RequestTranslator,
  ResponseContext,
  ResponseTranslator,
  StreamTranslatorFactory,
} from './translate-types';
import { chatRequestFromGemini } from './chat-request-from-gemini';
import { chatResponseFromGemini } from './chat-response-from-gemini';
import { chatStreamFromGemini } from './chat-stream-from-gemini';
import { geminiRequestFromChat } from './gemini-request-from-chat';
import { geminiRequestFromMessages } from './gemini-request-from-messages';
import { geminiResponseFromChat } from './gemini-response-from-chat';
import { geminiResponseFromMessages } from './gemini-response-from-messages';
import { geminiStreamFromChat } from './gemini-stream-from-chat';
import { geminiStreamFromMessages } from './gemini-stream-from-messages';
import {
  anthropicGrammarViolation,
  deepFreeze,
  fromWire,
  loadCases,
  runStream,
  toWire,
  type StoredEvent,
} from './golden-fixtures.testkit';
import { messagesRequestFromGemini } from './messages-request-from-gemini';
import { messagesResponseFromGemini } from './messages-response-from-gemini';
import { messagesStreamFromGemini } from './messages-stream-from-gemini';

/**
 * Golden cases for every Gemini direction (fixtures/gemini/, written from Google's, OpenAI's and
 * Anthropic's published wire formats and what Gemini CLI and the SDK send). Bodies are frozen: a
 * translator that writes into the client's body throws.
 */
interface RequestCase {
  name: string;
  options: RequestOptions;
  input: Json;
  expected: { body: Json; dropped: string[] } | { refusal: { field: string; message: string } };
}
interface ResponseCase {
  name: string;
  context: ResponseContext;
  input: Json;
  expected: Json;
}
interface StreamCase {
  name: string;
  context: ResponseContext;
  input: StoredEvent[];
  expected: StoredEvent[];
}

const requests: [string, RequestTranslator][] = [
  ['chat-request-from-gemini', chatRequestFromGemini],
  ['messages-request-from-gemini', messagesRequestFromGemini],
  ['gemini-request-from-chat', geminiRequestFromChat],
  ['gemini-request-from-messages', geminiRequestFromMessages],
];
const responses: [string, ResponseTranslator][] = [
  ['gemini-response-from-chat', geminiResponseFromChat],
  ['gemini-response-from-messages', geminiResponseFromMessages],
  ['chat-response-from-gemini', chatResponseFromGemini],
  ['messages-response-from-gemini', messagesResponseFromGemini],
];
const streams: [string, StreamTranslatorFactory][] = [
  ['gemini-stream-from-chat', geminiStreamFromChat],
  ['gemini-stream-from-messages', geminiStreamFromMessages],
  ['chat-stream-from-gemini', chatStreamFromGemini],
  ['messages-stream-from-gemini', messagesStreamFromGemini],
];

describe('Gemini golden cases (issue 23 §1)', () => {
  for (const [file, translate] of requests) {
    it.each(loadCases<RequestCase>(`gemini/${file}.json`))(`issue 23 §1 golden ${file}: $name`, (c) => {
      const result = translate(deepFreeze(structuredClone(c.input)), c.options);
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
  }

  for (const [file, translate] of responses) {
    it.each(loadCases<ResponseCase>(`gemini/${file}.json`))(`issue 23 §1 golden ${file}: $name`, (c) => {
      expect(translate(deepFreeze(structuredClone(c.input)), c.context)).toEqual(c.expected);
    });
  }

  for (const [file, factory] of streams) {
    it.each(loadCases<StreamCase>(`gemini/${file}.json`))(`issue 23 §1 golden ${file}: $name`, (c) => {
      const out = runStream(factory, c.context, c.input.map(toWire));
      expect(out.map(fromWire)).toEqual(c.expected);
      if (file === 'messages-stream-from-gemini') expect(anthropicGrammarViolation(out)).toBeNull();
      // A Gemini stream is `data:` lines only, without [DONE].
      if (file.startsWith('gemini-stream'))
        expect(out.every((e) => e.event === null && e.data !== '[DONE]')).toBe(true);
    });
  }

  it('issue 23 §1: a real Gemini CLI 0.61 request (a tool follow-up, captured) translates for Chat and for Anthropic', () => {
    const file = new URL('./fixtures/gemini/gemini-cli-request-tool-followup.json', import.meta.url);
    const captured = JSON.parse(readFileSync(file, 'utf8')) as { body: Json };
    const body = deepFreeze(captured.body);
    const chat = chatRequestFromGemini(body, { model: 'glm-4.6', reasoning: false, stream: true });
    if (!chat.ok) throw new Error(chat.refusal.field);
    expect(chat.dropped).toEqual(['generationConfig.topK', 'generationConfig.thinkingConfig']);
    const messages = chat.body.messages as Json[];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(messages[2]?.tool_calls).toEqual([
      { id: 'call_ls1', type: 'function', function: { name: 'list_directory', arguments: '{"dir_path":"."}' } },
    ]);
    expect(messages[3]?.tool_call_id).toBe('call_ls1');
    expect(chat.body).toMatchObject({ temperature: 1, top_p: 0.95, stream: true });
    expect((chat.body.tools as Json[]).length).toBe(16);

    const claude = messagesRequestFromGemini(body, { model: 'claude-sonnet-4-5', reasoning: true, stream: true });
    if (!claude.ok) throw new Error(claude.refusal.field);
    // The tool loop carries no Anthropic thinking (the model was another one): thinking is left out.
    expect(claude.dropped).toEqual(['generationConfig.thinkingConfig', 'generationConfig.topP']);
    expect(claude.body).toMatchObject({ temperature: 1, top_k: 64, max_tokens: 4096, stream: true });
    expect((claude.body.messages as Json[]).map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect((claude.body.tools as Json[]).every((t) => (t.input_schema as Json).type === 'object')).toBe(true);
  });
});
