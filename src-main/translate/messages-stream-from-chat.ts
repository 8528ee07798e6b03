import type { Json, ResponseContext, SseOut, StreamTranslator, StreamTranslatorFactory } from './translate-types';
import { asArray, asNumber, asObject, asString, parseObject } from './json-narrow';
import { firstChoice, matchedStopOf, reasoningOf, requestStopSequences } from './chat-fields';
import { anthropicErrorType } from './error-types';
import { messageIdFromChat, toolCallIdFor } from './ids';
import { anthropicEvent } from './sse-out';
import { messagesStopFromChat } from './stop-reasons';
import { messagesUsageFromChat } from './usage-map';

/**
 * Chat SSE chunks → Anthropic stream events, keeping Anthropic's grammar: message_start, then
 * blocks one at a time (content_block_start, deltas, content_block_stop), then message_delta and
 * message_stop. The closing pair waits for `[DONE]` (or the end of the body) because with
 * `include_usage` the usage arrives in a chunk after the one with `finish_reason`.
 */
export const messagesStreamFromChat: StreamTranslatorFactory = (context) => new MessagesFromChatStream(context);

type OpenBlock = { kind: 'text' | 'thinking'; index: number } | { kind: 'tool'; index: number; key: string };

class MessagesFromChatStream implements StreamTranslator {
  private started = false;
  private terminal = false;
  private open: OpenBlock | null = null;
  private nextBlock = 0;
  /** Chat tool call (by `index`, or by id for servers that omit it) → it has had its block. */
  private readonly tools = new Set<string>();
  private finishReason: string | null = null;
  private matchedStop: string | null = null;
  private usage: Json | null = null;

  constructor(private readonly context: ResponseContext) {}

  push(_event: string | null, data: string): SseOut[] {
    if (this.terminal) return [];
    const out: SseOut[] = [];
    if (data.trim() === '[DONE]') {
      this.finish(out);
      return out;
    }
    const chunk = parseObject(data);
    if (!chunk) return out;
    if (chunk.error !== undefined && chunk.error !== null) {
      this.fail(chunk.error, out);
      return out;
    }
    this.start(chunk, out);
    const usage = asObject(chunk.usage);
    if (usage) this.usage = usage;
    const choice = firstChoice(chunk);
    if (!choice) return out;
    const delta = asObject(choice.delta);
    if (delta) this.applyDelta(delta, out);
    const finishReason = asString(choice.finish_reason);
    if (finishReason) {
      this.finishReason = finishReason;
      this.matchedStop = matchedStopOf(choice);
      this.closeBlock(out);
    }
    return out;
  }

  end(): SseOut[] {
    if (this.terminal || this.finishReason === null) return [];
    const out: SseOut[] = [];
    this.finish(out);
    return out;
  }

  private start(chunk: Json | null, out: SseOut[]): void {
    if (this.started) return;
    this.started = true;
    const usage = asObject(chunk?.usage);
    const message = {
      id: messageIdFromChat(chunk?.id, this.context.idSeed),
      type: 'message',
      role: 'assistant',
      model: this.context.clientModel,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: usage ? messagesUsageFromChat(usage).input_tokens : 0, output_tokens: 0 },
    };
    out.push(anthropicEvent({ type: 'message_start', message }));
  }

  private applyDelta(delta: Json, out: SseOut[]): void {
    const reasoning = reasoningOf(delta);
    if (reasoning) {
      const index = this.openBlock('thinking', out);
      out.push(
        anthropicEvent({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: reasoning } }),
      );
    }
    const text = asString(delta.content);
    if (text) {
      const index = this.openBlock('text', out);
      out.push(anthropicEvent({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } }));
    }
    const calls = asArray(delta.tool_calls);
    if (calls) for (const call of calls) this.applyToolCall(asObject(call), out);
  }

  private openBlock(kind: 'text' | 'thinking', out: SseOut[]): number {
    if (this.open?.kind === kind) return this.open.index;
    this.closeBlock(out);
    const index = this.nextBlock++;
    this.open = { kind, index };
    const block = kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' };
    out.push(anthropicEvent({ type: 'content_block_start', index, content_block: block }));
    return index;
  }

  /** The first fragment of a call carries its id and name; later ones only argument text. */
  private applyToolCall(call: Json | null, out: SseOut[]): void {
    if (!call) return;
    const fn = asObject(call.function);
    const id = asString(call.id);
    const position = asNumber(call.index);
    const current = this.open?.kind === 'tool' ? this.open.key : null;
    const key = position !== null ? `i${position}` : id !== null ? `id${id}` : (current ?? 'i0');
    if (!this.tools.has(key)) {
      this.closeBlock(out);
      const index = this.nextBlock++;
      this.open = { kind: 'tool', index, key };
      const block = {
        type: 'tool_use',
        id: id ?? toolCallIdFor(this.context.idSeed, this.tools.size),
        name: asString(fn?.name) ?? '',
        input: {},
      };
      this.tools.add(key);
      out.push(anthropicEvent({ type: 'content_block_start', index, content_block: block }));
    } else if (key !== current) {
      // A fragment for a call whose block is closed: servers stream calls one after another, and
      // Anthropic's grammar cannot reopen a block (README: limitations).
      return;
    }
    const args = asString(fn?.arguments);
    if (args && this.open) {
      const delta = { type: 'input_json_delta', partial_json: args };
      out.push(anthropicEvent({ type: 'content_block_delta', index: this.open.index, delta }));
    }
  }

  private closeBlock(out: SseOut[]): void {
    if (!this.open) return;
    out.push(anthropicEvent({ type: 'content_block_stop', index: this.open.index }));
    this.open = null;
  }

  private finish(out: SseOut[]): void {
    this.start(null, out);
    this.closeBlock(out);
    const stop = messagesStopFromChat(
      this.finishReason,
      this.tools.size > 0,
      this.matchedStop,
      requestStopSequences(this.context.request),
    );
    const usage = this.usage ? messagesUsageFromChat(this.usage) : { output_tokens: 0 };
    out.push(anthropicEvent({ type: 'message_delta', delta: stop, usage }));
    out.push(anthropicEvent({ type: 'message_stop' }));
    this.terminal = true;
  }

  private fail(error: unknown, out: SseOut[]): void {
    const body = asObject(error);
    const code = body?.code;
    const type = anthropicErrorType(asString(body?.type), typeof code === 'number' ? String(code) : asString(code));
    const message = asString(body?.message) ?? asString(error) ?? 'upstream stream error';
    out.push(anthropicEvent({ type: 'error', error: { type, message } }));
    this.terminal = true;
  }
}
