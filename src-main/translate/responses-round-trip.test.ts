import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chatRequestFromResponses } from './chat-request-from-responses';
import { asArray, asObject, asString } from './json-narrow';
import { responsesStreamFromChat } from './responses-stream-from-chat';
import { chatChunk, itemOf, responseOf, runStream, sse } from './responses.testkit';
import { customInput, resolveTool, responsesToolIndex } from './responses-tools';
import type { Json, SseOut } from './translate-types';

/**
 * Property tests: a Responses request survives the trip to Chat Completions (and back through a
 * reverse written here), and any split of text and tool-argument fragments in a chat stream
 * assembles to the same final text and arguments in the Responses events.
 */

const TOOLS: Json[] = [
  { type: 'function', name: 'exec_command', parameters: { type: 'object', properties: { cmd: { type: 'string' } } } },
  { type: 'custom', name: 'apply_patch', format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/' } },
  {
    type: 'namespace',
    name: 'multi_agent_v1',
    tools: [{ type: 'function', name: 'spawn_agent', parameters: { type: 'object', properties: {} } }],
  },
  { type: 'web_search' },
];
const CALLABLE = [
  { name: 'exec_command', namespace: null, kind: 'function' },
  { name: 'apply_patch', namespace: null, kind: 'custom' },
  { name: 'spawn_agent', namespace: 'multi_agent_v1', kind: 'function' },
] as const;

const text = fc.string({ unit: 'grapheme', maxLength: 12 });
const someText = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 });
const parts = (type: 'input_text' | 'output_text') =>
  fc.array(text, { minLength: 1, maxLength: 3 }).map((texts) => texts.map((t) => ({ type, text: t })));

interface Turn {
  before: Json[];
  reasoning: string | null;
  answer: Json[] | null;
  calls: { tool: number; args: string; output: string }[];
}

const turn: fc.Arbitrary<Turn> = fc.record({
  before: fc.array(
    fc.oneof(
      parts('input_text').map((content) => ({ type: 'message', role: 'user', content })),
      parts('input_text').map((content) => ({ type: 'message', role: 'developer', content })),
    ),
    { minLength: 1, maxLength: 2 },
  ),
  reasoning: fc.option(someText),
  answer: fc.option(parts('output_text')),
  calls: fc.array(
    fc.record({
      tool: fc.nat({ max: CALLABLE.length - 1 }),
      args: fc.jsonValue().map((v) => JSON.stringify({ v })),
      output: text,
    }),
    { maxLength: 3 },
  ),
});

/** A conversation as codex would send it: each turn's items in the order a model produced them. */
function itemsOf(turns: Turn[]): Json[] {
  const items: Json[] = [];
  let callNumber = 0;
  for (const t of turns) {
    items.push(...t.before);
    if (t.reasoning !== null)
      items.push({ type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: t.reasoning }] });
    if (t.answer !== null) items.push({ type: 'message', role: 'assistant', content: t.answer });
    const calls = t.calls.map((c) => ({ ...c, id: `call_${callNumber++}`, spec: CALLABLE[c.tool] ?? CALLABLE[0] }));
    for (const c of calls) {
      const call: Json =
        c.spec.kind === 'custom'
          ? { type: 'custom_tool_call', call_id: c.id, name: c.spec.name, input: c.args }
          : { type: 'function_call', call_id: c.id, name: c.spec.name, arguments: c.args };
      if (c.spec.namespace) call.namespace = c.spec.namespace;
      items.push(call);
    }
    for (const c of calls) {
      items.push({
        type: c.spec.kind === 'custom' ? 'custom_tool_call_output' : 'function_call_output',
        call_id: c.id,
        output: c.output,
      });
    }
  }
  return items;
}

/** The items the chat messages stand for (test-only reverse): what must survive the trip. */
function itemsFromChat(messages: Json[], tools: Json[]): Json[] {
  const index = responsesToolIndex(tools);
  const kinds = new Map<string, string>();
  const items: Json[] = [];
  for (const m of messages) {
    const content = asString(m.content);
    if (m.role === 'system' || m.role === 'user') {
      items.push({ type: 'message', role: m.role === 'system' ? 'developer' : 'user', content });
    } else if (m.role === 'assistant') {
      const reasoning = asString(m.reasoning_content);
      if (reasoning !== null) items.push({ type: 'reasoning', text: reasoning });
      if (content !== null) items.push({ type: 'message', role: 'assistant', content });
      for (const call of asArray(m.tool_calls) ?? []) {
        const c = asObject(call) ?? {};
        const fn = asObject(c.function) ?? {};
        const tool = resolveTool(index, asString(fn.name) ?? '');
        const args = asString(fn.arguments) ?? '';
        const id = asString(c.id) ?? '';
        kinds.set(id, tool.kind);
        items.push({
          type: tool.kind === 'custom' ? 'custom_tool_call' : 'function_call',
          call_id: id,
          name: tool.name,
          namespace: tool.namespace,
          payload: tool.kind === 'custom' ? customInput(args) : args,
        });
      }
    } else if (m.role === 'tool') {
      const id = asString(m.tool_call_id) ?? '';
      const kind = kinds.get(id) === 'custom' ? 'custom_tool_call_output' : 'function_call_output';
      items.push({ type: kind, call_id: id, output: content });
    }
  }
  return items;
}

/** The original items in the reverse's normal form: parts joined as the translator joins them. */
function normalForm(items: Json[]): Json[] {
  const joined = (value: unknown) => (asArray(value) ?? []).map((p) => asString(asObject(p)?.text) ?? '').join('\n\n');
  return items.map((item) => {
    switch (item.type) {
      case 'message':
        return { type: 'message', role: item.role, content: joined(item.content) };
      case 'reasoning':
        return { type: 'reasoning', text: joined(item.content) };
      case 'function_call':
      case 'custom_tool_call':
        return {
          type: item.type,
          call_id: item.call_id,
          name: item.name,
          namespace: item.namespace ?? null,
          payload: item.type === 'custom_tool_call' ? item.input : item.arguments,
        };
      default:
        return { type: item.type, call_id: item.call_id, output: item.output };
    }
  });
}

describe('Responses ⇄ Chat round trip (property)', () => {
  it('any codex-shaped conversation reaches chat and comes back item for item', () => {
    fc.assert(
      fc.property(fc.array(turn, { minLength: 1, maxLength: 4 }), fc.option(someText), (turns, instructions) => {
        const input = itemsOf(turns);
        const request: Json = { model: 'x', input, tools: TOOLS, stream: true };
        if (instructions !== null) request.instructions = instructions;
        const out = chatRequestFromResponses(request, { model: 'up', reasoning: true });
        if (!out.ok) throw new Error(out.refusal.field);
        const messages = out.body.messages as Json[];
        const expected = normalForm(input);
        if (instructions !== null) expected.unshift({ type: 'message', role: 'developer', content: instructions });
        expect(itemsFromChat(messages, TOOLS)).toEqual(expected);
        expect(out.dropped).toEqual(['tools[3] (web_search: a hosted tool a chat model cannot run)']);
      }),
      { numRuns: 200 },
    );
  });
});

/** Cuts `value` at the given points (any order, duplicates allowed): fragments that join back to it. */
function fragments(value: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (value.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let start = 0;
  for (const p of points) {
    out.push(value.slice(start, p));
    start = p;
  }
  out.push(value.slice(start));
  return out.filter((f) => f !== '');
}

describe('Responses stream from chat fragments (property)', () => {
  it('any split of text and of parallel tool arguments assembles to the same text and arguments', () => {
    const call = fc.record({
      tool: fc.nat({ max: CALLABLE.length - 1 }),
      value: fc.jsonValue(),
      cuts: fc.array(fc.nat(), { maxLength: 6 }),
    });
    fc.assert(
      fc.property(
        fc.array(text, { maxLength: 6 }),
        fc.array(call, { maxLength: 3 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        (textPieces, calls, order) => {
          const fullText = textPieces.join('');
          const specs = calls.map((c, i) => {
            const spec = CALLABLE[c.tool] ?? CALLABLE[0];
            const args =
              spec.kind === 'custom'
                ? JSON.stringify({ input: JSON.stringify(c.value) })
                : JSON.stringify({ v: c.value });
            return { spec, args, pieces: fragments(args, c.cuts), id: `call_${i}` };
          });
          const events: SseOut[] = [sse(chatChunk({ role: 'assistant', content: '' }))];
          for (const piece of textPieces) events.push(sse(chatChunk({ content: piece })));
          specs.forEach((s, i) => {
            const name = s.spec.namespace ? `${s.spec.namespace}__${s.spec.name}` : s.spec.name;
            events.push(
              sse(
                chatChunk({
                  tool_calls: [{ index: i, id: s.id, type: 'function', function: { name, arguments: '' } }],
                }),
              ),
            );
          });
          // Interleave the calls' fragments in a random order, each call's own order kept.
          const queues = specs.map((s) => [...s.pieces]);
          let k = 0;
          while (queues.some((q) => q.length > 0)) {
            const live = queues.map((q, i) => [q, i] as const).filter(([q]) => q.length > 0);
            const [queue, index] = live[(order[k++ % Math.max(order.length, 1)] ?? 0) % live.length] ??
              live[0] ?? [[], 0];
            const piece = queue.shift();
            if (piece !== undefined)
              events.push(sse(chatChunk({ tool_calls: [{ index, function: { arguments: piece } }] })));
          }
          events.push(sse(chatChunk({}, specs.length > 0 ? 'tool_calls' : 'stop')), sse('[DONE]'));

          const out = runStream(
            responsesStreamFromChat({ clientModel: 'm', request: { tools: TOOLS }, idSeed: 'p' }),
            events,
          );
          out.forEach((e, i) => expect(e.data.sequence_number).toBe(i));
          const deltas = (type: string, itemId: unknown) =>
            out
              .filter((e) => e.type === type && e.data.item_id === itemId)
              .map((e) => String(e.data.delta))
              .join('');
          const completed = out[out.length - 1];
          expect(completed?.type).toBe('response.completed');
          const output = (completed ? responseOf(completed).output : []) as Json[];
          const done = out
            .filter((e) => e.type === 'response.output_item.done')
            .sort((a, b) => Number(a.data.output_index) - Number(b.data.output_index))
            .map(itemOf);
          expect(output).toEqual(done);

          const message = output.find((item) => item.type === 'message');
          if (fullText === '') expect(message).toBeUndefined();
          else {
            expect(deltas('response.output_text.delta', message?.id)).toBe(fullText);
            expect((asArray(message?.content)?.[0] as Json).text).toBe(fullText);
          }
          const callItems = output.filter((item) => item.type !== 'message');
          expect(callItems.map((item) => item.call_id)).toEqual(specs.map((s) => s.id));
          specs.forEach((s, i) => {
            const item = callItems[i] ?? {};
            expect(item.name).toBe(s.spec.name);
            expect(item.namespace ?? null).toBe(s.spec.namespace);
            if (s.spec.kind === 'custom') {
              expect(item.input).toBe(customInput(s.args));
              expect(deltas('response.custom_tool_call_input.delta', item.id)).toBe(item.input);
            } else {
              expect(item.arguments).toBe(s.args);
              expect(deltas('response.function_call_arguments.delta', item.id)).toBe(s.args);
            }
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
