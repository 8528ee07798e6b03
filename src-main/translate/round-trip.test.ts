import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Json, RequestTranslation, ResponseContext, SseOut } from './translate-types';
import { chatRequestFromMessages } from './chat-request-from-messages';
import { chatResponseFromMessages } from './chat-response-from-messages';
import { chatStreamFromMessages } from './chat-stream-from-messages';
import { anthropicGrammarViolation, deepFreeze, runStream } from './golden-fixtures.testkit';
import { messagesRequestFromChat } from './messages-request-from-chat';
import { messagesResponseFromChat } from './messages-response-from-chat';
import { messagesStreamFromChat } from './messages-stream-from-chat';
import { TOOL_ERROR_PREFIX } from './chat-messages-from-anthropic';
import { REQUEST_TEXT_JOIN } from './text-parts';
import { anthropicRequest, answer, split, streamShape, type Block } from './round-trip-arbitraries.testkit';

/**
 * Anthropic → Chat → Anthropic keeps the meaning of a request, an answer and a stream. What
 * legitimately changes is written down in `normalise*` below and in README "Anthropic ⇄ Chat":
 * text-only content becomes one string (blocks joined by a blank line), text comes before tool
 * calls in an assistant turn, tool results become strings (an error flag becomes an "Error: "
 * prefix), thinking in requests and signatures in answers do not survive, cache writes are input.
 */

function joined(blocks: Block[]): string {
  return blocks.map((block) => String(block.text)).join(REQUEST_TEXT_JOIN);
}

function toolResultText(block: Block): string {
  const content = typeof block.content === 'string' ? block.content : joined(block.content as Block[]);
  return block.is_error === true ? TOOL_ERROR_PREFIX + content : content;
}

function normaliseMessage(message: Json): Json {
  if (typeof message.content === 'string') return message;
  const blocks = message.content as Block[];
  const texts = blocks.filter((block) => block.type === 'text');
  if (message.role === 'assistant') {
    const uses = blocks.filter((block) => block.type === 'tool_use');
    if (uses.length === 0) return { role: 'assistant', content: joined(texts) };
    return {
      role: 'assistant',
      content: [...(texts.length > 0 ? [{ type: 'text', text: joined(texts) }] : []), ...uses],
    };
  }
  const results = blocks
    .filter((block) => block.type === 'tool_result')
    .map((block) => ({ type: 'tool_result', tool_use_id: block.tool_use_id, content: toolResultText(block) }));
  const others = blocks.filter((block) => block.type !== 'tool_result');
  const allText = others.every((block) => block.type === 'text');
  const rest = allText
    ? others.length > 0
      ? [{ type: 'text', text: joined(others) }]
      : []
    : others.map((block) => (block.type === 'text' ? { type: 'text', text: block.text } : block));
  if (results.length === 0 && allText) return { role: 'user', content: joined(others) };
  return { role: 'user', content: [...results, ...rest] };
}

function normaliseRequest(req: Json): Json {
  const out: Json = {
    model: req.model,
    max_tokens: req.max_tokens,
    messages: (req.messages as Json[]).map(normaliseMessage),
  };
  if (req.system !== undefined)
    out.system = typeof req.system === 'string' ? req.system : joined(req.system as Block[]);
  for (const key of ['temperature', 'top_p', 'stop_sequences', 'metadata'] as const) {
    if (req[key] !== undefined) out[key] = req[key];
  }
  if (req.stream === true) out.stream = true;
  if (req.tools !== undefined) {
    out.tools = (req.tools as Json[]).map((tool) => ({
      name: tool.name,
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      input_schema: tool.input_schema,
    }));
  }
  const choice = req.tool_choice as Json | undefined;
  if (choice) {
    out.tool_choice = { ...choice };
    if (choice.type === 'none' || choice.disable_parallel_tool_use !== true)
      delete (out.tool_choice as Json).disable_parallel_tool_use;
  }
  return out;
}

function bodyOf(result: RequestTranslation): Json {
  if (!result.ok) throw new Error(`refused ${result.refusal.field}: ${result.refusal.message}`);
  return result.body;
}

describe('Anthropic → Chat → Anthropic round trips', () => {
  it('issue 12 round trip: a request comes back as the original, modulo the documented normalisation', () => {
    fc.assert(
      fc.property(anthropicRequest, fc.boolean(), (req, reasoning) => {
        const chat = bodyOf(chatRequestFromMessages(deepFreeze(req), { model: 'glm-4.6', reasoning }));
        const back = bodyOf(messagesRequestFromChat(deepFreeze(chat), { model: String(req.model), reasoning: true }));
        expect(back).toEqual(normaliseRequest(req));
      }),
    );
  });

  it('issue 12 round trip: a whole answer comes back with the same text, tool calls, stop reason and token counts', () => {
    fc.assert(
      fc.property(answer, (a) => {
        const uses = a.uses.map((use, k) => ({ type: 'tool_use', id: `toolu_${k}`, name: use.name, input: use.input }));
        const original: Json = {
          id: `msg_${a.id}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5-20250929',
          content: [
            ...a.thinking.map((thinking) => ({ type: 'thinking', thinking, signature: 'sig' })),
            ...a.texts.map((t) => ({ type: 'text', text: t })),
            ...uses,
          ],
          stop_reason: a.stop_reason,
          stop_sequence: a.stop_reason === 'stop_sequence' ? '###' : null,
          usage: a.usage,
        };
        const chatContext: ResponseContext = { clientModel: 'sonnet', idSeed: 's', request: {} };
        const chat = chatResponseFromMessages(deepFreeze(original), chatContext);
        const back = messagesResponseFromChat(deepFreeze(chat), { clientModel: 'claude-x', idSeed: 's', request: {} });
        const endedNormally = a.stop_reason === 'end_turn' || a.stop_reason === 'stop_sequence';
        expect(back).toEqual({
          id: `msg_${a.id}`,
          type: 'message',
          role: 'assistant',
          model: 'claude-x',
          content: [
            ...(a.thinking.length > 0 ? [{ type: 'thinking', thinking: a.thinking.join(''), signature: '' }] : []),
            ...(a.texts.length > 0 ? [{ type: 'text', text: a.texts.join('') }] : []),
            ...uses,
          ],
          stop_reason: endedNormally ? (uses.length > 0 ? 'tool_use' : 'end_turn') : a.stop_reason,
          stop_sequence: null,
          usage: {
            input_tokens: a.usage.input_tokens + a.usage.cache_creation_input_tokens,
            output_tokens: a.usage.output_tokens,
            cache_read_input_tokens: a.usage.cache_read_input_tokens,
            cache_creation_input_tokens: 0,
          },
        });
      }),
    );
  });

  interface Assembled {
    type: string;
    value: string;
    id?: string;
    name?: string;
  }

  /** What a client builds from Anthropic events: each block's text, thinking or tool input JSON. */
  function assemble(events: SseOut[]): { blocks: Assembled[]; stop: unknown; usage: Json } {
    const blocks: Assembled[] = [];
    let stop: unknown = null;
    let usage: Json = {};
    for (const event of events) {
      const payload = JSON.parse(event.data) as Json;
      if (payload.type === 'content_block_start') {
        const block = payload.content_block as Json;
        const assembled: Assembled = { type: String(block.type), value: '' };
        if (block.type === 'tool_use') Object.assign(assembled, { id: block.id, name: block.name });
        blocks.push(assembled);
      } else if (payload.type === 'content_block_delta') {
        const delta = payload.delta as Json;
        const target = blocks[blocks.length - 1];
        if (target) target.value += String(delta.text ?? delta.partial_json ?? delta.thinking ?? '');
      } else if (payload.type === 'message_delta') {
        stop = (payload.delta as Json).stop_reason;
        usage = payload.usage as Json;
      }
    }
    return { blocks, stop, usage };
  }

  it('issue 12 round trip: random text and tool-argument splits assemble to the same text and tool input after A→C→A', () => {
    fc.assert(
      fc.property(streamShape, (shape) => {
        const events: SseOut[] = [];
        const push = (payload: Json & { type: string }) =>
          events.push({ event: payload.type, data: JSON.stringify(payload) });
        push({
          type: 'message_start',
          message: {
            id: 'msg_r',
            type: 'message',
            role: 'assistant',
            content: [],
            model: 'c',
            usage: { input_tokens: shape.input, output_tokens: 1 },
          },
        });
        const expected: Assembled[] = [];
        const all = [...(shape.thinking ? [{ kind: 'thinking' as const, ...shape.thinking }] : []), ...shape.blocks];
        all.forEach((block, index) => {
          if (block.kind === 'tool') {
            const id = `toolu_${index}`;
            push({
              type: 'content_block_start',
              index,
              content_block: { type: 'tool_use', id, name: block.name, input: {} },
            });
            for (const piece of split(block.value, block.cuts)) {
              push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } });
            }
            expected.push({ type: 'tool_use', value: block.value, id, name: block.name });
          } else {
            const type = block.kind === 'text' ? 'text' : 'thinking';
            push({
              type: 'content_block_start',
              index,
              content_block: type === 'text' ? { type, text: '' } : { type, thinking: '', signature: '' },
            });
            for (const piece of split(block.value, block.cuts)) {
              const delta =
                type === 'text' ? { type: 'text_delta', text: piece } : { type: 'thinking_delta', thinking: piece };
              push({ type: 'content_block_delta', index, delta });
            }
            // Chat has no text block boundaries: adjacent text blocks come back as one.
            const last = expected[expected.length - 1];
            if (last && last.type === type) last.value += block.value;
            else expected.push({ type, value: block.value });
          }
          push({ type: 'content_block_stop', index });
        });
        const stopReason = shape.blocks.some((block) => block.kind === 'tool') ? 'tool_use' : 'end_turn';
        push({
          type: 'message_delta',
          delta: { stop_reason: stopReason, stop_sequence: null },
          usage: { output_tokens: shape.output },
        });
        push({ type: 'message_stop' });

        const chatRequest = { stream: true, stream_options: { include_usage: true } };
        const chat = runStream(chatStreamFromMessages, { clientModel: 'm', idSeed: 's', request: chatRequest }, events);
        const back = runStream(messagesStreamFromChat, { clientModel: 'c', idSeed: 's', request: {} }, chat);
        expect(anthropicGrammarViolation(back)).toBeNull();
        const assembled = assemble(back);
        expect(assembled.blocks).toEqual(expected);
        for (const block of assembled.blocks)
          if (block.type === 'tool_use') expect(() => JSON.parse(block.value) as unknown).not.toThrow();
        expect(assembled.stop).toBe(stopReason);
        expect(assembled.usage).toMatchObject({ input_tokens: shape.input, output_tokens: shape.output });
      }),
    );
  });
});
