import fc from 'fast-check';
import type { Json } from './translate-types';
import { toolInput, toolNames } from './round-trip-arbitraries.testkit';

// Random Gemini requests and answers for gemini-round-trip.test.ts (fast-check arbitraries).

const text = fc.string({ minLength: 1, maxLength: 12 });
const image = fc
  .record({
    mimeType: fc.constantFrom('image/png', 'image/jpeg'),
    data: fc.base64String({ minLength: 4, maxLength: 16 }),
  })
  .map((inlineData) => ({ inlineData }));

/** Either spelling of a part key (proto3 JSON reads both), so readers are tested on both. */
function spelled(camel: string, snake: string, value: unknown) {
  return fc.boolean().map((snakeCase) => ({ [snakeCase ? snake : camel]: value }));
}

export interface ModelTurnShape {
  texts: string[];
  calls: { name: string; args: Json; id: string | null }[];
}

/** One model turn: some text, some calls (ids given or not), never empty. */
const modelTurn = fc
  .record({
    texts: fc.array(text, { maxLength: 2 }),
    calls: fc.array(
      fc.record({
        name: fc.constantFrom(...toolNames),
        args: toolInput,
        // Letters only, then a counter: never one of the ids Leeway makes up (`call_g<c>_<p>`).
        id: fc.option(fc.stringMatching(/^[a-z]{3,8}$/), { nil: null }),
      }),
      { maxLength: 2 },
    ),
  })
  .filter((turn) => turn.texts.length + turn.calls.length > 0);

/** A response answers a call: an output, or an error. */
const outcome = fc.oneof(
  text.map((output) => ({ output })),
  text.map((error) => ({ error })),
);

export const geminiConversation = fc.array(modelTurn, { maxLength: 3 }).chain((turns) => {
  // Unique ids per conversation (Gemini CLI's are), so pairing by id is unambiguous.
  let counter = 0;
  const built = turns.map((turn) => ({
    texts: turn.texts,
    calls: turn.calls.map((c) => ({ ...c, id: c.id === null ? null : `${c.id}_${counter++}` })),
  }));
  const userTurn = (calls: ModelTurnShape['calls']) =>
    fc
      .tuple(
        fc.tuple(...calls.map(() => outcome)),
        fc.array(
          fc.oneof(
            text.map((t) => ({ text: t })),
            image,
          ),
          { minLength: calls.length > 0 ? 0 : 1, maxLength: 2 },
        ),
        fc.tuple(...calls.map(() => fc.boolean())),
      )
      .chain(([outcomes, rest, spellings]) =>
        fc.constant([
          ...calls.map((call, k) => {
            const body: Json = { name: call.name, response: outcomes[k] };
            if (call.id !== null) body.id = call.id;
            return spellings[k] ? { function_response: body } : { functionResponse: body };
          }),
          ...rest,
        ]),
      );
  return fc.tuple(userTurn([]), ...built.map((turn) => userTurn(turn.calls))).chain(([first, ...rest]) =>
    fc
      .tuple(
        ...built.map((turn) =>
          fc.tuple(...turn.calls.map((c) => spelled('functionCall', 'function_call', callBody(c)))),
        ),
      )
      .map((callParts) => {
        const contents: Json[] = [{ role: 'user', parts: first }];
        built.forEach((turn, k) => {
          contents.push({ role: 'model', parts: [...turn.texts.map((t) => ({ text: t })), ...(callParts[k] ?? [])] });
          contents.push({ role: 'user', parts: rest[k] });
        });
        return { contents, turns: built };
      }),
  );
});

function callBody(call: ModelTurnShape['calls'][number]): Json {
  return call.id === null ? { name: call.name, args: call.args } : { id: call.id, name: call.name, args: call.args };
}

const declarations = fc.uniqueArray(
  fc.record(
    {
      name: fc.constantFrom(...toolNames),
      description: text,
      parametersJsonSchema: fc.constant({ type: 'object', properties: { a: { type: 'string' } } }),
    },
    { requiredKeys: ['name', 'parametersJsonSchema'] },
  ),
  { minLength: 1, maxLength: 3, selector: (d) => d.name },
);

export const geminiRequest = fc
  .record(
    {
      conversation: geminiConversation,
      systemInstruction: fc
        .array(text, { minLength: 1, maxLength: 2 })
        .map((texts) => ({ parts: texts.map((t) => ({ text: t })) })),
      tools: declarations,
      mode: fc.constantFrom('AUTO', 'ANY', 'NONE', 'FORCED'),
      maxOutputTokens: fc.integer({ min: 1, max: 8192 }),
      temperature: fc.double({ min: 0, max: 2, noNaN: true, noDefaultInfinity: true }),
      topP: fc.double({ min: 0, max: 1, noNaN: true, noDefaultInfinity: true }),
      stopSequences: fc.array(text, { minLength: 1, maxLength: 2 }),
    },
    { requiredKeys: ['conversation'] },
  )
  .map((r) => {
    const body: Json = { contents: r.conversation.contents };
    if (r.systemInstruction) body.systemInstruction = r.systemInstruction;
    if (r.tools) {
      body.tools = [{ functionDeclarations: r.tools }];
      if (r.mode) {
        const forced = r.mode === 'FORCED';
        body.toolConfig = {
          functionCallingConfig: forced ? { mode: 'ANY', allowedFunctionNames: [r.tools[0]?.name] } : { mode: r.mode },
        };
      }
    }
    const config: Json = {};
    for (const key of ['maxOutputTokens', 'temperature', 'topP', 'stopSequences'] as const) {
      if (r[key] !== undefined) config[key] = r[key];
    }
    if (Object.keys(config).length > 0) body.generationConfig = config;
    return body;
  });

/** A whole Gemini answer: thoughts, text, calls (ids and signatures or not), finish, usage. */
export const geminiAnswer = fc.record({
  thoughts: fc.array(text, { maxLength: 2 }),
  texts: fc.array(text, { maxLength: 3 }),
  calls: fc.array(
    fc.record({
      name: fc.constantFrom(...toolNames),
      args: toolInput,
      id: fc.option(fc.stringMatching(/^[a-z0-9]{4,10}$/), { nil: null }),
      signature: fc.option(
        fc.base64String({ minLength: 8, maxLength: 40 }).filter((s) => s.length > 0),
        { nil: null },
      ),
    }),
    { maxLength: 2 },
  ),
  finishReason: fc.constantFrom('STOP', 'MAX_TOKENS', 'SAFETY'),
  usage: fc.record({
    prompt: fc.nat(5000),
    cached: fc.nat(5000),
    candidates: fc.nat(5000),
    thoughts: fc.nat(5000),
  }),
  // Not `msg_…` or `chatcmpl-…`: those prefixes are the ones ids.ts rewrites between formats.
  responseId: fc.stringMatching(/^[A-Za-z0-9]{6,20}$/),
});
