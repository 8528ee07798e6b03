import { ApiError, GoogleGenAI, type GenerateContentResponse } from '@google/genai';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Json, ResponseContext, StreamTranslatorFactory } from './translate-types';
import { chatRequestFromGemini } from './chat-request-from-gemini';
import { geminiErrorBody } from './gemini-errors';
import { geminiModelList } from './gemini-models';
import { geminiResponseFromChat } from './gemini-response-from-chat';
import { geminiStreamFromChat } from './gemini-stream-from-chat';
import { geminiStreamFromMessages } from './gemini-stream-from-messages';
import { blocksOfEnvelope } from './gemini-thinking-envelope';
import { loadCases, runStream, toWire, type StoredEvent } from './golden-fixtures.testkit';
import { messagesRequestFromGemini } from './messages-request-from-gemini';
import { writeSse } from './sse-writer';

/**
 * Issue 23 §1: Google's own SDK (@google/genai 2.32, the last line that runs on Node 20) reads what
 * the Gemini translators write: its SSE parser and response classes on our stream and JSON, its
 * pager on the model list, its ApiError on Google's error envelope. A loopback server plays the
 * Gemini API with canned translated answers and keeps the request bodies the SDK sent, so the
 * request translators are also fed what a real Gemini client sends.
 */
interface StreamCase {
  name: string;
  context: ResponseContext;
  input: StoredEvent[];
}

const chatStreams = loadCases<StreamCase>('gemini/gemini-stream-from-chat.json');
const messagesStreams = loadCases<StreamCase>('gemini/gemini-stream-from-messages.json');

function streamPieces(factory: StreamTranslatorFactory, name: string, cases: StreamCase[]): string[] {
  const found = cases.find((c) => c.name.startsWith(name));
  if (!found) throw new Error(`no stream case "${name}"`);
  return writeSse(runStream(factory, found.context, found.input.map(toWire)));
}

function streamBody(factory: StreamTranslatorFactory, name: string, cases: StreamCase[]): string {
  return streamPieces(factory, name, cases).join('');
}

/** `later` is written 50 ms after `body`, as an upstream failure arrives after the answer's first events. */
const answers = new Map<string, { status: number; type: string; body: string; later?: string }>();
const received: { url: string; body: Json }[] = [];
let server: Server;
let baseUrl = '';

function handle(request: IncomingMessage, response: ServerResponse): void {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    received.push({ url: request.url ?? '', body: text ? (JSON.parse(text) as Json) : {} });
    const model = /models\/([^:/?]+)/.exec(request.url ?? '')?.[1] ?? '';
    const answer = answers.get(model) ?? answers.get(request.url ?? '');
    if (!answer) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify(geminiErrorBody(404, `models/${model} is not found`)));
      return;
    }
    response.writeHead(answer.status, { 'content-type': answer.type });
    if (answer.later === undefined) response.end(answer.body);
    else {
      response.write(answer.body);
      setTimeout(() => response.end(answer.later), 50);
    }
  });
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function client(): GoogleGenAI {
  return new GoogleGenAI({ apiKey: 'local-key', httpOptions: { baseUrl } });
}

async function collect(stream: AsyncGenerator<GenerateContentResponse>): Promise<GenerateContentResponse[]> {
  const out: GenerateContentResponse[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

const sse = 'text/event-stream';
const tools = [
  {
    functionDeclarations: [
      {
        name: 'get_weather',
        description: 'Current weather for a city.',
        parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
    ],
  },
];

describe('the Gemini SDK reads our translated answers (issue 23 §1)', () => {
  it('issue 23 §1: a Chat stream translated for Gemini parses into text chunks, one finish reason and the usage', async () => {
    answers.set('text-model', {
      status: 200,
      type: sse,
      body: streamBody(geminiStreamFromChat, 'reasoning and text', chatStreams),
    });
    const chunks = await collect(
      await client().models.generateContentStream({
        model: 'text-model',
        contents: 'Say hello',
        config: { thinkingConfig: { includeThoughts: true } },
      }),
    );
    expect(chunks.map((c) => c.text ?? '').join('')).toBe('Hello there');
    const thoughts = chunks.flatMap((c) => c.candidates?.[0]?.content?.parts ?? []).filter((p) => p.thought);
    expect(thoughts.map((p) => p.text).join('')).toBe('Thinking.');
    const last = chunks[chunks.length - 1];
    expect(last?.candidates?.[0]?.finishReason).toBe('STOP');
    expect(last?.usageMetadata).toMatchObject({ promptTokenCount: 19, candidatesTokenCount: 6, thoughtsTokenCount: 4 });
    expect(last?.responseId).toBe('C9');
  });

  it('issue 23 §1: tool-call fragments come out as whole function calls the SDK lists, with their ids', async () => {
    answers.set('tool-model', {
      status: 200,
      type: sse,
      body: streamBody(geminiStreamFromChat, 'two parallel tool calls', chatStreams),
    });
    const chunks = await collect(
      await client().models.generateContentStream({ model: 'tool-model', contents: 'Weather?', config: { tools } }),
    );
    const calls = chunks.flatMap((c) => c.functionCalls ?? []);
    expect(calls).toEqual([
      { id: 'call_abc', name: 'get_weather', args: { city: 'Paris' } },
      { id: 'call_def', name: 'get_weather', args: { city: 'Rome' } },
    ]);
  });

  it('issue 23 §1: an Anthropic stream keeps its thinking inside the call signature through the SDK', async () => {
    answers.set('claude-model', {
      status: 200,
      type: sse,
      body: streamBody(geminiStreamFromMessages, 'thinking with its signature', messagesStreams),
    });
    const chunks = await collect(
      await client().models.generateContentStream({ model: 'claude-model', contents: 'List', config: { tools } }),
    );
    const parts = chunks.flatMap((c) => c.candidates?.[0]?.content?.parts ?? []);
    const call = parts.find((p) => p.functionCall);
    expect(call?.functionCall).toEqual({
      id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
      name: 'list_directory',
      args: { dir_path: '.' },
    });
    expect(blocksOfEnvelope(call?.thoughtSignature ?? null)).toEqual([
      { type: 'thinking', thinking: 'List the directory.', signature: 'EqQBCkYIAxgCIkB0' },
    ]);
  });

  it('issue 23 §1: an upstream error mid-stream throws the SDK ApiError with its status after the text before it', async () => {
    // The bare envelope is a piece of its own (Google ends a failing stream so): it arrives alone.
    const [text, error] = streamPieces(geminiStreamFromChat, 'an error chunk', chatStreams);
    answers.set('error-model', { status: 200, type: sse, body: text ?? '', later: error ?? '' });
    const texts: string[] = [];
    const failure = await (async () => {
      for await (const chunk of await client().models.generateContentStream({ model: 'error-model', contents: 'x' })) {
        texts.push(chunk.text ?? '');
      }
      return null;
    })().catch((error: unknown) => error);
    expect(texts).toEqual(['Hi']);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(429);
    expect((failure as ApiError).message).toContain('RESOURCE_EXHAUSTED');
  });

  it('issue 23 §1: read together with the events before it, the error still ends the stream with an error', async () => {
    answers.set('merged-error-model', {
      status: 200,
      type: sse,
      body: streamBody(geminiStreamFromChat, 'an error chunk', chatStreams),
    });
    const failure = await collect(
      await client().models.generateContentStream({ model: 'merged-error-model', contents: 'x' }),
    ).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toContain('Incomplete JSON');
  });

  it('issue 23 §1: a whole answer (generateContent) reads as the SDK response class: text, calls, usage', async () => {
    const chat = {
      id: 'chatcmpl-J1',
      object: 'chat.completion',
      created: 0,
      model: 'glm-4.6',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Checking.',
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 30, completion_tokens: 12, total_tokens: 42 },
    };
    const body = geminiResponseFromChat(chat, { clientModel: 'json-model', idSeed: 's', request: {} });
    answers.set('json-model', { status: 200, type: 'application/json', body: JSON.stringify(body) });
    const answer = await client().models.generateContent({
      model: 'json-model',
      contents: 'Weather?',
      config: { tools },
    });
    expect(answer.functionCalls).toEqual([{ id: 'call_1', name: 'get_weather', args: { city: 'Oslo' } }]);
    expect(answer.candidates?.[0]?.finishReason).toBe('STOP');
    expect(answer.usageMetadata?.totalTokenCount).toBe(42);
    expect(answer.modelVersion).toBe('json-model');
  });

  it('issue 23 §1: Google-shaped errors throw the SDK ApiError with the status; the model list pages', async () => {
    const quota = geminiErrorBody(429, 'Resource has been exhausted (e.g. check quota).', [
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '41s' },
    ]);
    answers.set('busy-model', { status: 429, type: 'application/json', body: JSON.stringify(quota) });
    const failure = await client()
      .models.generateContent({ model: 'busy-model', contents: 'x' })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(429);
    expect((failure as ApiError).message).toContain('RESOURCE_EXHAUSTED');

    answers.set('/v1beta/models', {
      status: 200,
      type: 'application/json',
      body: JSON.stringify(geminiModelList(['gemini-2.5-pro', { id: 'claude-sonnet-4-5', inputTokenLimit: 200_000 }])),
    });
    const names: string[] = [];
    for await (const model of await client().models.list()) names.push(model.name ?? '');
    expect(names).toEqual(['models/gemini-2.5-pro', 'models/claude-sonnet-4-5']);
  });

  it('issue 23 §1: what the SDK sends is accepted by both request translators', async () => {
    answers.set('capture-model', { status: 200, type: 'application/json', body: JSON.stringify({ candidates: [] }) });
    received.length = 0;
    await client().models.generateContent({
      model: 'capture-model',
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Oslo?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Oslo' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: '3°C' } } }] },
      ],
      config: {
        systemInstruction: 'Be brief.',
        tools,
        temperature: 0.5,
        maxOutputTokens: 256,
        thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
      },
    });
    const sent = received.find((r) => r.url.includes('capture-model'))?.body ?? {};
    const chat = chatRequestFromGemini(sent, { model: 'glm-4.6', reasoning: false });
    expect(chat.ok && chat.body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Oslo?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_g1_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_g1_0', content: '3°C' },
    ]);
    const messages = messagesRequestFromGemini(sent, { model: 'claude-sonnet-4-5', reasoning: true });
    expect(messages.ok && messages.body.system).toBe('Be brief.');
    // The tool loop has no Anthropic thinking to send back, so thinking is left out (README "Gemini").
    expect(messages.ok && [messages.body.max_tokens, messages.body.thinking]).toEqual([256, undefined]);
    expect(messages.ok && messages.dropped).toContain('generationConfig.thinkingConfig');
  });
});
