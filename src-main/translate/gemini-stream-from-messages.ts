import type { Json, ResponseContext, SseOut, StreamTranslator, StreamTranslatorFactory } from './translate-types';
import { asNumber, asObject, asString, parseObject } from './json-narrow';
import { argsOf, callPart, geminiAnswer, wantsThoughts, type AnswerIds } from './gemini-answer';
import { geminiStreamErrorFromAnthropic } from './gemini-errors';
import { geminiFinishFromMessages } from './gemini-finish';
import { responseIdFrom } from './gemini-ids';
import { envelopeOf } from './gemini-thinking-envelope';
import { geminiUsageFromMessages } from './gemini-usage';
import { countsFromMessagesUsage, type MessagesCounts } from './usage-map';

/**
 * Anthropic stream events → Gemini stream chunks (each `data:` a whole GenerateContentResponse).
 * Text and thinking deltas go out as they come (thinking only when the client asked
 * `includeThoughts`); a tool_use block is gathered and sent whole when it closes, as Gemini sends
 * calls, carrying the thinking before it as its signature (gemini-thinking-envelope.ts).
 * `message_stop` (or the end of the body after `message_delta`) sends the last chunk with the
 * finish reason and the usage.
 */
export const geminiStreamFromMessages: StreamTranslatorFactory = (context) => new GeminiFromMessagesStream(context);

type OpenBlock =
  | { kind: 'text' }
  | { kind: 'thinking'; thinking: string; signature: string }
  | { kind: 'tool'; id: string; name: string; json: string };

class GeminiFromMessagesStream implements StreamTranslator {
  private readonly ids: AnswerIds;
  private readonly thoughts: boolean;
  private readonly counts: MessagesCounts = { input: 0, output: 0, cacheRead: 0, cacheCreation: 0 };
  private readonly open = new Map<number, OpenBlock>();
  /** Thinking blocks since the last tool call: the next call carries them. */
  private thinking: Json[] = [];
  private stopReason: string | null = null;
  private deltaSeen = false;
  private terminal = false;

  constructor(private readonly context: ResponseContext) {
    this.ids = { responseId: context.idSeed, modelVersion: context.clientModel };
    this.thoughts = wantsThoughts(context.request);
  }

  push(event: string | null, data: string): SseOut[] {
    if (this.terminal) return [];
    const payload = parseObject(data);
    if (!payload) return [];
    const index = asNumber(payload.index) ?? -1;
    switch (event ?? asString(payload.type)) {
      case 'message_start': {
        const message = asObject(payload.message);
        this.ids.responseId = responseIdFrom(message?.id, this.context.idSeed);
        countsFromMessagesUsage(asObject(message?.usage), this.counts);
        return [];
      }
      case 'content_block_start':
        return this.start(index, asObject(payload.content_block));
      case 'content_block_delta':
        return this.delta(index, asObject(payload.delta));
      case 'content_block_stop':
        return this.stop(index);
      case 'message_delta':
        this.deltaSeen = true;
        this.stopReason = asString(asObject(payload.delta)?.stop_reason) ?? this.stopReason;
        countsFromMessagesUsage(asObject(payload.usage), this.counts);
        return [];
      case 'message_stop':
        return this.finish();
      case 'error':
        this.terminal = true;
        return geminiStreamErrorFromAnthropic(asObject(payload.error));
      default:
        // ping and newer events carry nothing a Gemini client reads.
        return [];
    }
  }

  end(): SseOut[] {
    if (this.terminal || !this.deltaSeen) return [];
    return this.finish();
  }

  private chunk(parts: Json[], finishReason: string | null = null, usage: Json | null = null): SseOut[] {
    return [{ event: null, data: JSON.stringify(geminiAnswer(parts, finishReason, usage, this.ids)) }];
  }

  private start(index: number, block: Json | null): SseOut[] {
    if (block?.type === 'text') {
      this.open.set(index, { kind: 'text' });
      const text = asString(block.text);
      return text ? this.chunk([{ text }]) : [];
    }
    if (block?.type === 'thinking') {
      const thinking = asString(block.thinking) ?? '';
      this.open.set(index, { kind: 'thinking', thinking, signature: asString(block.signature) ?? '' });
      return thinking && this.thoughts ? this.chunk([{ text: thinking, thought: true }]) : [];
    }
    if (block?.type === 'redacted_thinking') this.thinking.push(block);
    if (block?.type === 'tool_use') {
      const input = asObject(block.input);
      // Streams start with `input: {}` and send the JSON as deltas; a block that arrives whole keeps its input.
      const json = input && Object.keys(input).length > 0 ? JSON.stringify(input) : '';
      this.open.set(index, { kind: 'tool', id: asString(block.id) ?? '', name: asString(block.name) ?? '', json });
    }
    return [];
  }

  private delta(index: number, delta: Json | null): SseOut[] {
    const block = this.open.get(index);
    if (!block || !delta) return [];
    if (delta.type === 'text_delta' && block.kind === 'text') {
      const text = asString(delta.text);
      return text ? this.chunk([{ text }]) : [];
    }
    if (block.kind === 'thinking') {
      if (delta.type === 'signature_delta') block.signature += asString(delta.signature) ?? '';
      const text = delta.type === 'thinking_delta' ? asString(delta.thinking) : null;
      if (!text) return [];
      block.thinking += text;
      return this.thoughts ? this.chunk([{ text, thought: true }]) : [];
    }
    if (delta.type === 'input_json_delta' && block.kind === 'tool') block.json += asString(delta.partial_json) ?? '';
    return [];
  }

  private stop(index: number): SseOut[] {
    const block = this.open.get(index);
    this.open.delete(index);
    if (block?.kind === 'thinking') {
      this.thinking.push({ type: 'thinking', thinking: block.thinking, signature: block.signature });
    } else if (block?.kind === 'tool') {
      const part = callPart(block.id, block.name, argsOf(block.json), envelopeOf(this.thinking));
      this.thinking = [];
      return this.chunk([part]);
    }
    return [];
  }

  private finish(): SseOut[] {
    this.terminal = true;
    const usage = geminiUsageFromMessages(this.counts);
    // Google's last chunk has a content even when nothing is left to say.
    return this.chunk([{ text: '' }], geminiFinishFromMessages(this.stopReason), usage);
  }
}
