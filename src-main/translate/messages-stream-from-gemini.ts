import type { Json, ResponseContext, SseOut, StreamTranslator, StreamTranslatorFactory } from './translate-types';
import { parseObject } from './json-narrow';
import { readCandidate, type GeminiPart } from './gemini-candidate';
import { anthropicErrorFromGemini, readGeminiError } from './gemini-errors';
import { messagesStopFromGemini } from './gemini-finish';
import { clientToolId } from './gemini-ids';
import { messagesUsageFromGemini } from './gemini-usage';
import { messageIdFromChat, toolCallIdFor } from './ids';
import { anthropicEvent } from './sse-out';

/**
 * Gemini stream chunks → Anthropic stream events, in Anthropic's grammar: message_start (input
 * tokens from the first chunk's usage), blocks one at a time (thinking, text, and a tool_use per
 * function call with its whole input as one delta), then, at the chunk with the finish reason,
 * message_delta and message_stop. An error chunk becomes `event: error`; nothing follows it.
 */
export const messagesStreamFromGemini: StreamTranslatorFactory = (context) => new MessagesFromGeminiStream(context);

class MessagesFromGeminiStream implements StreamTranslator {
  private started = false;
  private terminal = false;
  private open: { kind: 'text' | 'thinking'; index: number } | null = null;
  private nextBlock = 0;
  private calls = 0;
  private usage: Json | null = null;

  constructor(private readonly context: ResponseContext) {}

  push(_event: string | null, data: string): SseOut[] {
    if (this.terminal) return [];
    const body = parseObject(data);
    if (!body) return [];
    const out: SseOut[] = [];
    const error = readGeminiError(body);
    if (error && body.candidates === undefined) {
      this.terminal = true;
      const envelope = anthropicErrorFromGemini(error);
      out.push(anthropicEvent({ type: 'error', error: envelope.error }));
      return out;
    }
    const answer = readCandidate(body);
    if (answer.usage) this.usage = answer.usage;
    this.start(answer.responseId, out);
    for (const part of answer.parts) this.part(part, out);
    if (answer.finishReason !== null) {
      this.closeBlock(out);
      const stop = messagesStopFromGemini(answer.finishReason, this.calls > 0);
      const delta = { stop_reason: stop, stop_sequence: null };
      out.push(anthropicEvent({ type: 'message_delta', delta, usage: messagesUsageFromGemini(this.usage) }));
      out.push(anthropicEvent({ type: 'message_stop' }));
      this.terminal = true;
    }
    return out;
  }

  end(): SseOut[] {
    // The finish reason is Gemini's last word: a stream without one did not end, and says nothing more.
    return [];
  }

  private start(responseId: string | null, out: SseOut[]): void {
    if (this.started) return;
    this.started = true;
    const message = {
      id: messageIdFromChat(responseId, this.context.idSeed),
      type: 'message',
      role: 'assistant',
      model: this.context.clientModel,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: messagesUsageFromGemini(this.usage).input_tokens, output_tokens: 0 },
    };
    out.push(anthropicEvent({ type: 'message_start', message }));
  }

  private part(part: GeminiPart, out: SseOut[]): void {
    if (part.kind === 'call') {
      this.closeBlock(out);
      const index = this.nextBlock++;
      const id = clientToolId(part.id ?? toolCallIdFor(this.context.idSeed, this.calls), part.signature);
      this.calls++;
      const block = { type: 'tool_use', id, name: part.name, input: {} };
      out.push(anthropicEvent({ type: 'content_block_start', index, content_block: block }));
      const delta = { type: 'input_json_delta', partial_json: JSON.stringify(part.args) };
      out.push(anthropicEvent({ type: 'content_block_delta', index, delta }));
      out.push(anthropicEvent({ type: 'content_block_stop', index }));
      return;
    }
    if (!part.text) return;
    const index = this.openBlock(part.kind === 'text' ? 'text' : 'thinking', out);
    const delta =
      part.kind === 'text' ? { type: 'text_delta', text: part.text } : { type: 'thinking_delta', thinking: part.text };
    out.push(anthropicEvent({ type: 'content_block_delta', index, delta }));
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

  private closeBlock(out: SseOut[]): void {
    if (!this.open) return;
    out.push(anthropicEvent({ type: 'content_block_stop', index: this.open.index }));
    this.open = null;
  }
}
