import { describe, expect, it } from 'vitest';
import type { Json, RequestOptions, ResponseContext, SseOut } from './translate-types';
import type { Hop } from './bridges';
import { chatRequestFromResponses } from './chat-request-from-responses';
import { CHAT_TO_GEMINI, GEMINI_TO_CHAT, GEMINI_TO_MESSAGES, MESSAGES_TO_GEMINI } from './gemini-hops';
import { deepFreeze } from './golden-fixtures.testkit';
import { responsesResponseFromChat } from './responses-response-from-chat';
import { responsesStreamFromChat } from './responses-stream-from-chat';
import { responsesFixture } from './responses.testkit';

/**
 * The Gemini hops chained the way bridge-request.ts and bridge-response.ts chain hops (issue 23 §1):
 * a codex (Responses) request reaches a Gemini connection through Chat, and Gemini's answer comes
 * back as Responses events codex reads; a Gemini client and a Gemini connection meet through
 * Chat or Anthropic with nothing lost on the way.
 */
const RESPONSES_TO_CHAT: Hop = {
  request: chatRequestFromResponses,
  response: responsesResponseFromChat,
  stream: responsesStreamFromChat,
};

/** The request through each hop, client-side first, as bridgeRequest runs them. */
function throughRequests(hops: Hop[], body: Json, options: RequestOptions): { bodies: Json[]; dropped: string[] } {
  const bodies: Json[] = [];
  const dropped: string[] = [];
  let current = body;
  hops.forEach((hop, i) => {
    bodies.push(current);
    const out = hop.request(deepFreeze(current), {
      ...options,
      reasoning: i === hops.length - 1 ? options.reasoning : true,
    });
    if (!out.ok) throw new Error(`hop ${i} refused ${out.refusal.field}: ${out.refusal.message}`);
    dropped.push(...out.dropped);
    current = out.body;
  });
  bodies.push(current);
  return { bodies, dropped };
}

/** Upstream events through each hop's stream translator, upstream-side first, as bridgeResponse chains them. */
function throughStreams(hops: Hop[], requests: Json[], events: SseOut[]): SseOut[] {
  let current = events;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i];
    if (!hop) continue;
    const context: ResponseContext = { clientModel: 'client-model', idSeed: 'seed', request: requests[i] ?? {} };
    const translator = hop.stream(context);
    const next: SseOut[] = [];
    for (const e of current) next.push(...translator.push(e.event, e.data));
    next.push(...translator.end());
    current = next;
  }
  return current;
}

const geminiChunk = (parts: Json[], finishReason?: string): SseOut => ({
  event: null,
  data: JSON.stringify({
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(finishReason ? { finishReason } : {}) }],
    usageMetadata: { promptTokenCount: 40, candidatesTokenCount: 12, totalTokenCount: 52 },
    responseId: 'r1',
  }),
});

describe('Gemini hops chained (issue 23 §1)', () => {
  it('issue 23 §1: a codex request reaches a Gemini connection through Chat, and the Gemini stream reads as Responses events', () => {
    const codex = responsesFixture('codex-request-function-call-followup.json');
    const hops = [RESPONSES_TO_CHAT, CHAT_TO_GEMINI];
    const { bodies } = throughRequests(hops, codex, { model: 'gemini-2.5-pro', reasoning: true });
    const gemini = bodies[2] ?? {};
    expect(gemini.model).toBeUndefined();
    expect((gemini.contents as Json[]).length).toBeGreaterThan(1);
    const events = throughStreams(hops, bodies, [
      geminiChunk([{ text: 'Running ' }]),
      geminiChunk([{ text: 'it.' }, { functionCall: { id: 'fc1', name: 'exec_command', args: { cmd: 'ls' } } }]),
      geminiChunk([{ text: '' }], 'STOP'),
    ]);
    const types = events.map((e) => (JSON.parse(e.data) as Json).type);
    expect(types[0]).toBe('response.created');
    expect(types[types.length - 1]).toBe('response.completed');
    const done = events.map((e) => JSON.parse(e.data) as Json).filter((e) => e.type === 'response.output_item.done');
    expect(done.map((e) => (e.item as Json).type)).toEqual(['message', 'function_call']);
    expect((done[1]?.item as Json).call_id).toBe('fc1');
  });

  it('issue 23 §1: a Gemini client meets a Gemini connection through Chat and through Anthropic, and gets its answer back whole', () => {
    const request = {
      contents: [{ role: 'user', parts: [{ text: 'List files' }] }],
      tools: [{ functionDeclarations: [{ name: 'ls', parametersJsonSchema: { type: 'object', properties: {} } }] }],
      generationConfig: { thinkingConfig: { includeThoughts: true } },
    };
    const upstream = [
      geminiChunk([{ text: 'Plan.', thought: true }]),
      geminiChunk([{ functionCall: { id: 'c1', name: 'ls', args: {} }, thoughtSignature: 'c2lnbmVk' }], 'STOP'),
    ];
    for (const middle of [
      [GEMINI_TO_CHAT, CHAT_TO_GEMINI],
      [GEMINI_TO_MESSAGES, MESSAGES_TO_GEMINI],
    ]) {
      const { bodies } = throughRequests(middle, request, { model: 'gemini-2.5-pro', reasoning: true, stream: true });
      expect(bodies[2]?.contents).toEqual(request.contents);
      const parts = throughStreams(middle, bodies, upstream).flatMap((e) => {
        const body = JSON.parse(e.data) as Json;
        return ((body.candidates as Json[])[0]?.content as Json).parts as Json[];
      });
      expect(parts.filter((p) => p.functionCall)).toEqual([
        { functionCall: { id: 'c1', name: 'ls', args: {} }, thoughtSignature: 'c2lnbmVk' },
      ]);
      expect(
        parts
          .filter((p) => p.thought)
          .map((p) => p.text)
          .join(''),
      ).toBe('Plan.');
    }
  });
});
