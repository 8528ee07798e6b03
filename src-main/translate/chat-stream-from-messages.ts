import type { Json, ResponseContext, SseOut, StreamTranslator, StreamTranslatorFactory } from './translate-types';
import { asNumber, asObject, asString, parseObject } from './json-narrow';
import { CREATED_UNKNOWN } from './chat-response-from-messages';
import { openaiErrorKind } from './error-types';
import { completionIdFromMessages } from './ids';
import { chatData, chatDone } from './sse-out';
import { chatFinishFromMessages } from './stop-reasons';
import { chatUsageFromCounts, countsFromMessagesUsage, type MessagesCounts } from './usage-map';

/**
 * Anthropic stream events → chat.completion.chunk lines. The first chunk says `role:"assistant"`;
 * each tool_use block becomes a tool call numbered in order of appearance (id and name in its
 * first chunk, argument fragments after); message_delta gives the finish_reason chunk; message_stop
 * the usage chunk (only when the client asked `stream_options.include_usage`) and `[DONE]`.
 */
export const chatStreamFromMessages: StreamTranslatorFactory = (context) => new ChatFromMessagesStream(context);

class ChatFromMessagesStream implements StreamTranslator {
  private id: string;
  private started = false;
  private finishSent = false;
  private terminal = false;
  /** Anthropic block index → Chat tool call index. */
  private readonly toolIndex = new Map<number, number>();
  private readonly counts: MessagesCounts = { input: 0, output: 0, cacheRead: 0, cacheCreation: 0 };
  private readonly includeUsage: boolean;

  constructor(private readonly context: ResponseContext) {
    this.id = completionIdFromMessages(null, context.idSeed);
    this.includeUsage = asObject(context.request.stream_options)?.include_usage === true;
  }

  push(event: string | null, data: string): SseOut[] {
    if (this.terminal) return [];
    const payload = parseObject(data);
    if (!payload) return [];
    const out: SseOut[] = [];
    switch (event ?? asString(payload.type)) {
      case 'message_start': {
        const message = asObject(payload.message);
        this.id = completionIdFromMessages(message?.id, this.context.idSeed);
        countsFromMessagesUsage(asObject(message?.usage), this.counts);
        this.begin(out);
        break;
      }
      case 'content_block_start':
        this.begin(out);
        this.blockStart(payload, out);
        break;
      case 'content_block_delta':
        this.begin(out);
        this.blockDelta(payload, out);
        break;
      case 'message_delta': {
        this.begin(out);
        countsFromMessagesUsage(asObject(payload.usage), this.counts);
        const stopReason = asString(asObject(payload.delta)?.stop_reason);
        out.push(this.chunk({}, chatFinishFromMessages(stopReason)));
        this.finishSent = true;
        break;
      }
      case 'message_stop':
        this.begin(out);
        this.close(out);
        break;
      case 'error':
        this.fail(asObject(payload.error), out);
        break;
      default:
        // ping, content_block_stop and newer events carry nothing a Chat client reads.
        break;
    }
    return out;
  }

  end(): SseOut[] {
    if (this.terminal || !this.finishSent) return [];
    const out: SseOut[] = [];
    this.close(out);
    return out;
  }

  private chunk(delta: Json, finishReason: string | null): SseOut {
    return chatData({
      id: this.id,
      object: 'chat.completion.chunk',
      created: CREATED_UNKNOWN,
      model: this.context.clientModel,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    });
  }

  private begin(out: SseOut[]): void {
    if (this.started) return;
    this.started = true;
    out.push(this.chunk({ role: 'assistant', content: '' }, null));
  }

  private blockStart(payload: Json, out: SseOut[]): void {
    const block = asObject(payload.content_block);
    const index = asNumber(payload.index);
    if (!block || index === null) return;
    if (block.type === 'tool_use') {
      const position = this.toolIndex.size;
      this.toolIndex.set(index, position);
      const input = asObject(block.input);
      // Streams start with `input: {}` and send the JSON as deltas; a block that arrives whole keeps its input.
      const args = input && Object.keys(input).length > 0 ? JSON.stringify(input) : '';
      const name = asString(block.name) ?? '';
      const call = {
        index: position,
        id: asString(block.id) ?? '',
        type: 'function',
        function: { name, arguments: args },
      };
      out.push(this.chunk({ tool_calls: [call] }, null));
    } else if (block.type === 'text') {
      const text = asString(block.text);
      if (text) out.push(this.chunk({ content: text }, null));
    } else if (block.type === 'thinking') {
      const thinking = asString(block.thinking);
      if (thinking) out.push(this.chunk({ reasoning_content: thinking }, null));
    }
  }

  private blockDelta(payload: Json, out: SseOut[]): void {
    const delta = asObject(payload.delta);
    if (!delta) return;
    if (delta.type === 'text_delta') {
      const text = asString(delta.text);
      if (text) out.push(this.chunk({ content: text }, null));
    } else if (delta.type === 'input_json_delta') {
      const position = this.toolIndex.get(asNumber(payload.index) ?? -1);
      const fragment = asString(delta.partial_json);
      if (position !== undefined && fragment) {
        out.push(this.chunk({ tool_calls: [{ index: position, function: { arguments: fragment } }] }, null));
      }
    } else if (delta.type === 'thinking_delta') {
      const thinking = asString(delta.thinking);
      if (thinking) out.push(this.chunk({ reasoning_content: thinking }, null));
    }
  }

  private close(out: SseOut[]): void {
    if (!this.finishSent) out.push(this.chunk({}, 'stop'));
    if (this.includeUsage) {
      out.push(
        chatData({
          id: this.id,
          object: 'chat.completion.chunk',
          created: CREATED_UNKNOWN,
          model: this.context.clientModel,
          choices: [],
          usage: chatUsageFromCounts(this.counts),
        }),
      );
    }
    out.push(chatDone());
    this.terminal = true;
  }

  private fail(error: Json | null, out: SseOut[]): void {
    const kind = openaiErrorKind(asString(error?.type));
    const message = asString(error?.message) ?? 'upstream stream error';
    out.push(chatData({ error: { message, type: kind.type, code: kind.code } }));
    this.terminal = true;
  }
}
