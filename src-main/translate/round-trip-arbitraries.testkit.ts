import fc from 'fast-check';
import type { Json } from './translate-types';

// Random Anthropic requests, answers and streams for round-trip.test.ts (fast-check arbitraries).

export type Block = Json & { type: string };

const text = fc.string({ minLength: 1, maxLength: 12 });
const cacheControl = fc.option(fc.constant({ type: 'ephemeral' }), { nil: undefined });
const textBlock = fc.record(
  { type: fc.constant('text'), text, cache_control: cacheControl },
  { requiredKeys: ['type', 'text'] },
);
const imageBlock = fc.oneof(
  fc.record({
    type: fc.constant('image'),
    source: fc.record({
      type: fc.constant('base64'),
      media_type: fc.constantFrom('image/png', 'image/jpeg'),
      data: fc.base64String({ minLength: 4, maxLength: 16 }),
    }),
  }),
  fc.record({
    type: fc.constant('image'),
    source: fc.record({
      type: fc.constant('url'),
      url: fc.constantFrom('https://example.com/a.png', 'http://x.test/b.jpg'),
    }),
  }),
);
export const toolInput = fc.dictionary(fc.constantFrom('a', 'path', 'n', 'list'), fc.jsonValue({ maxDepth: 2 }), {
  maxKeys: 3,
});
export const toolNames = ['get_weather', 'read_file', 'Bash'];

/** One user turn after an assistant turn: results for its tool calls, then optional other content. */
function userTurn(toolIds: string[]) {
  const result = (id: string) =>
    fc.record(
      {
        type: fc.constant('tool_result'),
        tool_use_id: fc.constant(id),
        content: fc.oneof(fc.string({ maxLength: 8 }), fc.array(textBlock, { minLength: 1, maxLength: 2 })),
        is_error: fc.option(fc.boolean(), { nil: undefined }),
      },
      { requiredKeys: ['type', 'tool_use_id', 'content'] },
    );
  const others = fc.array(fc.oneof(textBlock, textBlock, imageBlock), {
    minLength: toolIds.length > 0 ? 0 : 1,
    maxLength: 3,
  });
  const blocks = fc.tuple(fc.tuple(...toolIds.map(result)), others).map(([results, rest]) => [...results, ...rest]);
  return toolIds.length > 0 ? blocks : fc.oneof(text, blocks);
}

const assistantTurn = fc.oneof(
  text,
  fc
    .record({
      thinking: fc.option(fc.record({ type: fc.constant('thinking'), thinking: text, signature: text }), {
        nil: undefined,
      }),
      texts: fc.array(textBlock, { maxLength: 2 }),
      uses: fc.array(fc.record({ name: fc.constantFrom(...toolNames), input: toolInput }), { maxLength: 2 }),
    })
    .filter((turn) => turn.texts.length + turn.uses.length > 0),
);

/** Alternating turns starting and ending with the user; tool ids are unique per conversation. */
const conversation = fc.array(assistantTurn, { maxLength: 3 }).chain((assistants) => {
  let counter = 0;
  const built = assistants.map((turn) => {
    if (typeof turn === 'string') return { content: turn as unknown, ids: [] as string[] };
    const uses = turn.uses.map((use) => ({
      type: 'tool_use',
      id: `toolu_${counter++}`,
      name: use.name,
      input: use.input,
    }));
    const content = [...(turn.thinking ? [turn.thinking] : []), ...turn.texts, ...uses];
    return { content: content as unknown, ids: uses.map((use) => use.id) };
  });
  return fc.tuple(userTurn([]), ...built.map((turn) => userTurn(turn.ids))).map(([first, ...rest]) => {
    const messages: Json[] = [{ role: 'user', content: first }];
    built.forEach((turn, k) =>
      messages.push({ role: 'assistant', content: turn.content }, { role: 'user', content: rest[k] }),
    );
    return messages;
  });
});

const tools = fc.uniqueArray(
  fc.record(
    {
      name: fc.constantFrom(...toolNames),
      description: fc.option(text, { nil: undefined }),
      input_schema: fc.constant({ type: 'object', properties: { a: { type: 'string' } } }),
      type: fc.option(fc.constant('custom'), { nil: undefined }),
      cache_control: cacheControl,
    },
    { requiredKeys: ['name', 'input_schema'] },
  ),
  { minLength: 1, maxLength: 3, selector: (tool) => tool.name },
);

const toolChoice = fc.oneof(
  fc.record(
    { type: fc.constantFrom('auto', 'any'), disable_parallel_tool_use: fc.option(fc.boolean(), { nil: undefined }) },
    { requiredKeys: ['type'] },
  ),
  fc.constant({ type: 'none' }),
  fc.constant({ type: 'tool', name: 'get_weather' }),
);

export const anthropicRequest = fc
  .record(
    {
      model: fc.constant('claude-sonnet-4-5'),
      max_tokens: fc.integer({ min: 1, max: 64000 }),
      messages: conversation,
      system: fc.oneof(text, fc.array(textBlock, { minLength: 1, maxLength: 3 })),
      temperature: fc.double({ min: 0, max: 1, noNaN: true, noDefaultInfinity: true }),
      top_p: fc.double({ min: 0, max: 1, noNaN: true, noDefaultInfinity: true }),
      stop_sequences: fc.array(text, { minLength: 1, maxLength: 3 }),
      stream: fc.boolean(),
      metadata: fc.record({ user_id: text }),
      tools,
      tool_choice: toolChoice,
    },
    { requiredKeys: ['model', 'max_tokens', 'messages'] },
  )
  .map((req) => {
    // A forced tool must be one of the tools offered; without tools there is no choice to make.
    const body: Json = { ...req };
    if (!req.tools) delete body.tool_choice;
    else if (req.tool_choice?.type === 'tool') body.tool_choice = { type: 'tool', name: req.tools[0]?.name ?? '' };
    return body;
  });

const usage = fc.record({
  input_tokens: fc.nat(5000),
  output_tokens: fc.nat(5000),
  cache_read_input_tokens: fc.nat(5000),
  cache_creation_input_tokens: fc.nat(5000),
});
export const answer = fc.record({
  thinking: fc.array(text, { maxLength: 2 }),
  texts: fc.array(text, { maxLength: 3 }),
  uses: fc.array(fc.record({ name: fc.constantFrom(...toolNames), input: toolInput }), { maxLength: 2 }),
  stop_reason: fc.constantFrom('end_turn', 'max_tokens', 'tool_use', 'stop_sequence'),
  usage,
  id: fc.stringMatching(/^[A-Za-z0-9]{8,20}$/),
});

/** Splits a string at the given cut points (kept in range), so fragments may be empty or one character. */
export function split(value: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (value.length + 1)))].sort((x, y) => x - y);
  const pieces: string[] = [];
  let from = 0;
  for (const point of points) {
    pieces.push(value.slice(from, point));
    from = point;
  }
  pieces.push(value.slice(from));
  return pieces;
}

const streamBlock = fc.oneof(
  fc.record({
    kind: fc.constant('text' as const),
    value: fc.string({ minLength: 1, maxLength: 30 }),
    cuts: fc.array(fc.nat(), { maxLength: 6 }),
  }),
  fc.record({
    kind: fc.constant('tool' as const),
    name: fc.constantFrom(...toolNames),
    value: toolInput.map((input) => JSON.stringify(input)),
    cuts: fc.array(fc.nat(), { maxLength: 8 }),
  }),
);
export const streamShape = fc.record({
  thinking: fc.option(
    fc.record({ value: fc.string({ minLength: 1, maxLength: 20 }), cuts: fc.array(fc.nat(), { maxLength: 4 }) }),
    { nil: undefined },
  ),
  blocks: fc.array(streamBlock, { maxLength: 5 }),
  output: fc.nat(9999),
  input: fc.nat(9999),
});
