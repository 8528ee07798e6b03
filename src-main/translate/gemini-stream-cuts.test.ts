import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Json, ResponseContext, SseOut, StreamTranslatorFactory } from './translate-types';
import { chatStreamFromGemini } from './chat-stream-from-gemini';
import { geminiStreamFromChat } from './gemini-stream-from-chat';
import { geminiStreamFromMessages } from './gemini-stream-from-messages';
import { fromWire, loadCases, runStream, toWire, type StoredEvent } from './golden-fixtures.testkit';
import { messagesStreamFromGemini } from './messages-stream-from-gemini';
import { split, toolInput } from './round-trip-arbitraries.testkit';
import { createSseReader } from '../kernel/sse/sse-reader';

/**
 * Streams cut at random places (issue 23 §1): the upstream's bytes arrive in pieces split anywhere,
 * inside a line, a JSON string or a UTF-8 sequence, and Chat tool-call arguments in fragments split
 * anywhere; the client must get the same events as from the whole stream, and Gemini function calls
 * whole.
 */
interface StreamCase {
  name: string;
  context: ResponseContext;
  input: StoredEvent[];
  expected: StoredEvent[];
}

const files: [string, StreamTranslatorFactory, string][] = [
  // Google separates its events with CRLF pairs; Chat and Anthropic servers with LF.
  ['gemini-stream-from-chat', geminiStreamFromChat, '\n'],
  ['gemini-stream-from-messages', geminiStreamFromMessages, '\n'],
  ['chat-stream-from-gemini', chatStreamFromGemini, '\r\n'],
  ['messages-stream-from-gemini', messagesStreamFromGemini, '\r\n'],
];

function wire(events: StoredEvent[], eol: string): Buffer {
  const text = events
    .map(toWire)
    .map((e) => `${e.event === null ? '' : `event: ${e.event}${eol}`}data: ${e.data}${eol}${eol}`)
    .join('');
  return Buffer.from(text, 'utf8');
}

/** Bytes cut at the given offsets → the reader → the translator: what the client receives. */
function translateBytes(
  factory: StreamTranslatorFactory,
  context: ResponseContext,
  bytes: Buffer,
  cuts: number[],
): SseOut[] {
  const reader = createSseReader();
  const translator = factory(context);
  const out: SseOut[] = [];
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  for (const point of [...points, bytes.length]) {
    for (const e of reader.push(bytes.subarray(from, point))) out.push(...translator.push(e.event, e.data));
    from = point;
  }
  for (const e of reader.end()) out.push(...translator.push(e.event, e.data));
  out.push(...translator.end());
  return out;
}

describe('Gemini streams cut at random places (issue 23 §1)', () => {
  for (const [file, factory, eol] of files) {
    it(`issue 23 §1: ${file}: any byte cuts give the golden events`, () => {
      const cases = loadCases<StreamCase>(`gemini/${file}.json`);
      fc.assert(
        fc.property(fc.nat(cases.length - 1), fc.array(fc.nat(), { maxLength: 40 }), (which, cuts) => {
          const c = cases[which];
          if (!c) return;
          const out = translateBytes(factory, c.context, wire(c.input, eol), cuts);
          expect(out.map(fromWire)).toEqual(c.expected);
        }),
        { numRuns: 200 },
      );
    });
  }

  const context: ResponseContext = { clientModel: 'gemini-2.5-pro', idSeed: 's', request: { contents: [] } };
  const chunk = (delta: Json, finish: string | null = null): SseOut => ({
    event: null,
    data: JSON.stringify({ id: 'chatcmpl-x', choices: [{ index: 0, delta, finish_reason: finish }] }),
  });

  it('issue 23 §1: Chat tool-call arguments split anywhere, calls interleaved, come out as whole Gemini function calls', () => {
    const calls = fc.array(
      fc.record({
        name: fc.constantFrom('read_file', 'Bash'),
        args: toolInput,
        cuts: fc.array(fc.nat(), { maxLength: 8 }),
      }),
      { minLength: 1, maxLength: 3 },
    );
    fc.assert(
      fc.property(calls, fc.boolean(), (list, interleave) => {
        const pieces = list.map((c, index) =>
          split(JSON.stringify(c.args), c.cuts).map((fragment, k) => ({ index, fragment, first: k === 0 })),
        );
        // Interleaved: round robin over the calls (OpenAI sends them one after another; some servers do not).
        const longest = Math.max(...pieces.map((p) => p.length));
        const order = interleave
          ? Array.from({ length: longest }, (_, k) => pieces.map((p) => p[k])).flat()
          : pieces.flat();
        const events: SseOut[] = [chunk({ role: 'assistant', content: null })];
        for (const piece of order) {
          if (!piece) continue;
          const call = list[piece.index];
          const fn = piece.first ? { name: call?.name, arguments: piece.fragment } : { arguments: piece.fragment };
          const head = piece.first ? { id: `call_${piece.index}`, type: 'function' } : {};
          events.push(chunk({ tool_calls: [{ index: piece.index, ...head, function: fn }] }));
        }
        events.push(chunk({}, 'tool_calls'), { event: null, data: '[DONE]' });
        const out = runStream(geminiStreamFromChat, context, events).map((e) => JSON.parse(e.data) as Json);
        const parts = out.flatMap((body) => ((body.candidates as Json[])[0]?.content as Json).parts as Json[]);
        // Arguments are JSON text on the Chat side (-0 comes back 0).
        const sent = list.map((c, i) => ({
          id: `call_${i}`,
          name: c.name,
          args: JSON.parse(JSON.stringify(c.args)) as Json,
        }));
        expect(parts.map((p) => p.functionCall)).toEqual(sent);
      }),
    );
  });

  it('issue 23 §1: Gemini text split into any chunks reads back whole on the Chat and Anthropic sides', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 60 }), fc.array(fc.nat(), { maxLength: 10 }), (text, cuts) => {
        const pieces = split(text, cuts);
        const events: SseOut[] = pieces.map((piece, k) => ({
          event: null,
          data: JSON.stringify({
            candidates: [
              {
                content: { role: 'model', parts: [{ text: piece }] },
                index: 0,
                ...(k === pieces.length - 1 ? { finishReason: 'STOP' } : {}),
              },
            ],
          }),
        }));
        const chat = runStream(chatStreamFromGemini, context, events)
          .filter((e) => e.data !== '[DONE]')
          .map(
            (e) => ((JSON.parse(e.data) as { choices: Json[] }).choices[0]?.delta as Json | undefined)?.content ?? '',
          )
          .join('');
        expect(chat).toBe(text);
        const anthropic = runStream(messagesStreamFromGemini, context, events)
          .map((e) => JSON.parse(e.data) as Json)
          .filter((e) => e.type === 'content_block_delta')
          .map((e) => (e.delta as Json).text)
          .join('');
        expect(anthropic).toBe(text);
      }),
    );
  });
});
