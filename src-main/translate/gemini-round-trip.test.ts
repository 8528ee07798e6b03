import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Json, RequestTranslation, ResponseContext, SseOut } from './translate-types';
import { chatRequestFromGemini } from './chat-request-from-gemini';
import { chatResponseFromGemini } from './chat-response-from-gemini';
import { chatStreamFromGemini } from './chat-stream-from-gemini';
import { geminiCallId, SKIP_SIGNATURE } from './gemini-ids';
import { geminiRequestFromChat } from './gemini-request-from-chat';
import { geminiRequestFromMessages } from './gemini-request-from-messages';
import { geminiResponseFromChat } from './gemini-response-from-chat';
import { geminiResponseFromMessages } from './gemini-response-from-messages';
import { geminiStreamFromChat } from './gemini-stream-from-chat';
import { geminiAnswer, geminiRequest } from './gemini-round-trip-arbitraries.testkit';
import { deepFreeze, runStream } from './golden-fixtures.testkit';
import { messagesRequestFromGemini } from './messages-request-from-gemini';
import { messagesResponseFromGemini } from './messages-response-from-gemini';
import { split } from './round-trip-arbitraries.testkit';
import { REQUEST_TEXT_JOIN } from './text-parts';

/**
 * Gemini → Chat → Gemini and Gemini → Anthropic → Gemini keep the meaning of a request, an answer
 * and a stream (issue 23 §1). What legitimately changes is written in `normalise*` below and in
 * README "Gemini": ids appear (a call without one gets `call_g<content>_<part>`), the first call of
 * a model turn carries Google's stand-in signature, model text parts join with nothing, user text
 * parts with a blank line where Chat needs one string, results lead their turn, `{error}` results
 * are "Error: " text through Chat, a forced function leaves only itself declared, and Anthropic
 * adds its default max_tokens and keeps temperature over topP.
 */
function bodyOf(result: RequestTranslation): Json {
  if (!result.ok) throw new Error(`refused ${result.refusal.field}: ${result.refusal.message}`);
  return result.body;
}

const parts = (content: Json) => content.parts as Json[];
const responseOf = (part: Json) => (part.functionResponse ?? part.function_response) as Json | undefined;
const callOf = (part: Json) => (part.functionCall ?? part.function_call) as Json | undefined;

function normaliseContents(contents: Json[], target: 'chat' | 'anthropic'): Json[] {
  const ids: string[][] = [];
  return contents.map((content, c) => {
    if (content.role === 'model') {
      const texts = parts(content).filter((p) => typeof p.text === 'string');
      const calls = parts(content).flatMap((p, k) => {
        const call = callOf(p);
        return call
          ? [{ id: (call.id as string | undefined) ?? geminiCallId(c, k), name: call.name, args: call.args }]
          : [];
      });
      ids.push(calls.map((call) => call.id));
      const out: Json[] = texts.length > 0 ? [{ text: texts.map((p) => p.text).join('') }] : [];
      calls.forEach((call, k) =>
        out.push(k === 0 ? { functionCall: call, thoughtSignature: SKIP_SIGNATURE } : { functionCall: call }),
      );
      return { role: 'model', parts: out };
    }
    const answered = ids[ids.length - 1] ?? [];
    const results = parts(content).flatMap((p) => {
      const response = responseOf(p);
      if (!response) return [];
      const id = answered.shift();
      const result = response.response as Json;
      const kept =
        target === 'anthropic' || result.error === undefined ? result : { output: `Error: ${String(result.error)}` };
      return [{ functionResponse: { id, name: response.name, response: kept } }];
    });
    const rest = parts(content).filter((p) => !responseOf(p));
    const allText = rest.every((p) => typeof p.text === 'string');
    const others =
      target === 'chat' && allText && rest.length > 0
        ? [{ text: rest.map((p) => p.text).join(REQUEST_TEXT_JOIN) }]
        : rest;
    return { role: 'user', parts: [...results, ...others] };
  });
}

function normaliseRequest(req: Json, target: 'chat' | 'anthropic'): Json {
  const out: Json = { contents: normaliseContents(req.contents as Json[], target) };
  const system = req.systemInstruction as Json | undefined;
  if (system)
    out.systemInstruction = {
      parts: [
        {
          text: parts(system)
            .map((p) => p.text)
            .join(REQUEST_TEXT_JOIN),
        },
      ],
    };
  const tools = req.tools as Json[] | undefined;
  const calling = (req.toolConfig as Json | undefined)?.functionCallingConfig as Json | undefined;
  if (tools) {
    const allowed = calling?.allowedFunctionNames as string[] | undefined;
    const declared = (tools[0]?.functionDeclarations as Json[]).filter(
      (d) => !allowed || allowed.includes(String(d.name)),
    );
    out.tools = [{ functionDeclarations: declared }];
    if (calling) out.toolConfig = { functionCallingConfig: calling };
  }
  const config = { ...((req.generationConfig as Json | undefined) ?? {}) };
  if (target === 'anthropic') {
    config.maxOutputTokens ??= 4096;
    if (config.temperature !== undefined) delete config.topP;
  }
  if (Object.keys(config).length > 0) out.generationConfig = config;
  return out;
}

const options = { model: 'upstream', reasoning: false };

/** A body as the client reads it off the wire (JSON has no -0). */
function wire(body: Json): Json {
  return JSON.parse(JSON.stringify(body)) as Json;
}

describe('Gemini round trips (issue 23 §1)', () => {
  it('issue 23 §1 round trip: a Gemini request comes back from Chat as the original, modulo the documented normalisation', () => {
    fc.assert(
      fc.property(geminiRequest, (req) => {
        const chat = bodyOf(chatRequestFromGemini(deepFreeze(req), options));
        const back = bodyOf(geminiRequestFromChat(deepFreeze(chat), options));
        expect(wire(back)).toEqual(wire(normaliseRequest(req, 'chat')));
      }),
    );
  });

  it('issue 23 §1 round trip: a Gemini request comes back from Anthropic as the original, modulo the documented normalisation', () => {
    fc.assert(
      fc.property(geminiRequest, (req) => {
        const claude = bodyOf(messagesRequestFromGemini(deepFreeze(req), options));
        const back = bodyOf(geminiRequestFromMessages(deepFreeze(claude), options));
        expect(wire(back)).toEqual(wire(normaliseRequest(req, 'anthropic')));
      }),
    );
  });

  it('issue 23 §1 round trip: Anthropic thinking and tool calls answered to a Gemini client come back to Anthropic verbatim on its next turn', () => {
    const thinkingBlock = fc.record({
      type: fc.constant('thinking'),
      thinking: fc.string({ minLength: 1, maxLength: 40 }),
      signature: fc.base64String({ minLength: 8, maxLength: 60 }).filter((s) => s.length > 0),
    });
    const use = fc.record({
      name: fc.constantFrom('Read', 'Bash'),
      input: fc.dictionary(fc.constantFrom('a', 'b'), fc.string()),
    });
    fc.assert(
      fc.property(
        fc.array(thinkingBlock, { minLength: 1, maxLength: 2 }),
        fc.array(use, { minLength: 1, maxLength: 2 }),
        (thinking, uses) => {
          const tools = uses.map((u, k) => ({ type: 'tool_use', id: `toolu_0${k}`, name: u.name, input: u.input }));
          const answer = {
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            content: [...thinking, ...tools],
            stop_reason: 'tool_use',
            usage: {},
          };
          const gemini = geminiResponseFromMessages(deepFreeze(answer), { clientModel: 'g', idSeed: 's', request: {} });
          // The Gemini client (Gemini CLI) keeps the model turn as it came, and answers each call.
          const modelTurn = ((gemini.candidates as Json[])[0]?.content as Json) ?? {};
          const next = {
            contents: [
              { role: 'user', parts: [{ text: 'go' }] },
              modelTurn,
              {
                role: 'user',
                parts: tools.map((t) => ({ functionResponse: { id: t.id, name: t.name, response: { output: 'ok' } } })),
              },
            ],
            generationConfig: { thinkingConfig: { thinkingBudget: 2048 } },
          };
          const claude = bodyOf(messagesRequestFromGemini(deepFreeze(next), options));
          expect(claude.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
          expect((claude.messages as Json[])[1]).toEqual({ role: 'assistant', content: [...thinking, ...tools] });
        },
      ),
    );
  });

  type Answer = typeof geminiAnswer extends fc.Arbitrary<infer T> ? T : never;
  const thoughtful: ResponseContext = {
    clientModel: 'gemini-x',
    idSeed: 'seed',
    request: { contents: [], generationConfig: { thinkingConfig: { includeThoughts: true } } },
  };

  function geminiBody(a: Answer): Json {
    const out: Json[] = [
      ...a.thoughts.map((t) => ({ text: t, thought: true })),
      ...a.texts.map((t) => ({ text: t })),
      ...a.calls.map((c) => ({
        functionCall: c.id === null ? { name: c.name, args: c.args } : { id: c.id, name: c.name, args: c.args },
        ...(c.signature === null ? {} : { thoughtSignature: c.signature }),
      })),
    ];
    const cached = Math.min(a.usage.cached, a.usage.prompt);
    return {
      candidates: [{ content: { role: 'model', parts: out }, finishReason: a.finishReason, index: 0 }],
      usageMetadata: {
        promptTokenCount: a.usage.prompt,
        candidatesTokenCount: a.usage.candidates,
        totalTokenCount: a.usage.prompt + a.usage.candidates + a.usage.thoughts,
        ...(cached > 0 ? { cachedContentTokenCount: cached } : {}),
        ...(a.usage.thoughts > 0 ? { thoughtsTokenCount: a.usage.thoughts } : {}),
      },
      modelVersion: 'gemini-x',
      responseId: a.responseId,
    };
  }

  /** What comes back: one thought part, one text part, the calls with their ids (made up when absent) and signatures. */
  function expectedBack(a: Answer, via: 'chat' | 'anthropic'): Json {
    const body = geminiBody(a);
    const out: Json[] = [];
    if (a.thoughts.length > 0) out.push({ text: a.thoughts.join(''), thought: true });
    if (a.texts.length > 0) out.push({ text: a.texts.join('') });
    a.calls.forEach((c, k) => {
      // Arguments travel as JSON text through Chat and Anthropic streams (-0 comes back 0).
      const args = JSON.parse(JSON.stringify(c.args)) as Json;
      const functionCall = { id: c.id ?? `call_seed_${k}`, name: c.name, args };
      out.push(c.signature === null ? { functionCall } : { functionCall, thoughtSignature: c.signature });
    });
    const candidate = (body.candidates as Json[])[0] as Json;
    const usage = { ...(body.usageMetadata as Json) };
    if (via === 'anthropic') {
      // Anthropic counts thinking inside output_tokens: it comes back as candidates.
      usage.candidatesTokenCount = a.usage.candidates + a.usage.thoughts;
      delete usage.thoughtsTokenCount;
    }
    const finish = via === 'anthropic' && a.finishReason === 'SAFETY' ? 'STOP' : a.finishReason;
    return {
      ...body,
      candidates: [{ ...candidate, content: { parts: out, role: 'model' }, finishReason: finish }],
      usageMetadata: usage,
    };
  }

  it('issue 23 §1 round trip: a whole Gemini answer comes back from Chat and from Anthropic with its parts, ids, signatures and counts', () => {
    fc.assert(
      fc.property(geminiAnswer, (a) => {
        const viaChat = chatResponseFromGemini(deepFreeze(geminiBody(a)), { ...thoughtful, request: {} });
        expect(wire(geminiResponseFromChat(deepFreeze(viaChat), thoughtful))).toEqual(expectedBack(a, 'chat'));
        const viaClaude = messagesResponseFromGemini(deepFreeze(geminiBody(a)), { ...thoughtful, request: {} });
        expect(wire(geminiResponseFromMessages(deepFreeze(viaClaude), thoughtful))).toEqual(
          expectedBack(a, 'anthropic'),
        );
      }),
    );
  });

  /** A Gemini client's view of a stream: thoughts and text joined, the calls, the last finish and usage. */
  function assemble(events: SseOut[]): Json {
    const out = { thought: '', text: '', calls: [] as Json[], finishReason: null as unknown, usage: null as unknown };
    for (const event of events) {
      const body = JSON.parse(event.data) as Json;
      const candidate = (body.candidates as Json[])[0] as Json;
      for (const part of ((candidate.content as Json).parts as Json[]) ?? []) {
        if (part.functionCall) out.calls.push(part);
        else if (part.thought) out.thought += String(part.text);
        else out.text += String(part.text);
      }
      if (candidate.finishReason) [out.finishReason, out.usage] = [candidate.finishReason, body.usageMetadata];
    }
    return out;
  }

  it('issue 23 §1 round trip: a Gemini stream cut anywhere assembles to the same answer after Gemini → Chat → Gemini', () => {
    fc.assert(
      fc.property(geminiAnswer, fc.array(fc.nat(), { maxLength: 8 }), (a, cuts) => {
        const whole = geminiBody(a);
        const candidate = (whole.candidates as Json[])[0] as Json;
        const allParts = (candidate.content as Json).parts as Json[];
        const chunk = (p: Json[], last: boolean) => ({
          event: null,
          data: JSON.stringify({
            candidates: [
              { content: { role: 'model', parts: p }, index: 0, ...(last ? { finishReason: a.finishReason } : {}) },
            ],
            ...(last ? { usageMetadata: whole.usageMetadata } : {}),
            responseId: a.responseId,
          }),
        });
        const events: SseOut[] = [];
        for (const part of allParts) {
          if (typeof part.text !== 'string') events.push(chunk([part], false));
          else for (const piece of split(part.text, cuts)) events.push(chunk([{ ...part, text: piece }], false));
        }
        events.push(chunk([], true));
        const chat = runStream(
          chatStreamFromGemini,
          { ...thoughtful, request: { stream_options: { include_usage: true } } },
          events,
        );
        const back = assemble(runStream(geminiStreamFromChat, thoughtful, chat));
        const expected = expectedBack(a, 'chat');
        const expectedCandidate = (expected.candidates as Json[])[0] as Json;
        const expectedParts = (expectedCandidate.content as Json).parts as Json[];
        expect(back).toEqual({
          thought: a.thoughts.join(''),
          text: a.texts.join(''),
          calls: expectedParts.filter((p) => p.functionCall),
          finishReason: a.finishReason,
          usage: expected.usageMetadata,
        });
      }),
    );
  });
});
