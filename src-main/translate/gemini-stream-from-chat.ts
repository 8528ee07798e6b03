import type { Json, ResponseContext, SseOut, StreamTranslator, StreamTranslatorFactory } from './translate-types';
import { asArray, asNumber, asObject, asString, parseObject } from './json-narrow';
import { firstChoice, reasoningOf } from './chat-fields';
import { anthropicErrorType, httpStatusOfAnthropicType } from './error-types';
import { argsOf, callPart, chatCallSignature, geminiAnswer, wantsThoughts, type AnswerIds } from './gemini-answer';
import { geminiStreamError } from './gemini-errors';
import { geminiFinishFromChat } from './gemini-finish';
import { responseIdFrom } from './gemini-ids';
import { geminiUsageFromChat } from './gemini-usage';
import { toolCallIdFor } from './ids';

/**
 * Chat SSE chunks → Gemini `streamGenerateContent?alt=sse` chunks: each `data:` a whole
 * GenerateContentResponse, no `[DONE]`. Text and thoughts go out as they come; a Gemini function
 * call arrives whole, so tool-call fragments are gathered and sent in the last chunk, with the
 * finish reason and the usage. That chunk waits for `[DONE]` (or the end of the body) because with
 * `include_usage` the usage comes in a chunk after the finish reason.
 */
export const geminiStreamFromChat: StreamTranslatorFactory = (context) => new GeminiFromChatStream(context);

interface PendingCall {
  id: string | null;
  name: string;
  args: string;
  signature: string | null;
}

class GeminiFromChatStream implements StreamTranslator {
  private readonly ids: AnswerIds;
  private readonly thoughts: boolean;
  private idSeen = false;
  private terminal = false;
  private finishReason: string | null = null;
  private usage: Json | null = null;
  /** By Chat `index` (or id, for servers that omit it), in order of appearance. */
  private readonly calls = new Map<string, PendingCall>();
  private lastKey: string | null = null;

  constructor(private readonly context: ResponseContext) {
    this.ids = { responseId: context.idSeed, modelVersion: context.clientModel };
    this.thoughts = wantsThoughts(context.request);
  }

  push(_event: string | null, data: string): SseOut[] {
    if (this.terminal) return [];
    if (data.trim() === '[DONE]') return this.finish();
    const chunk = parseObject(data);
    if (!chunk) return [];
    if (chunk.error !== undefined && chunk.error !== null) return this.fail(chunk.error);
    if (!this.idSeen && asString(chunk.id)) {
      this.idSeen = true;
      this.ids.responseId = responseIdFrom(chunk.id, this.context.idSeed);
    }
    const usage = asObject(chunk.usage);
    if (usage) this.usage = usage;
    const choice = firstChoice(chunk);
    const delta = asObject(choice?.delta);
    const parts: Json[] = [];
    const reasoning = reasoningOf(delta);
    if (reasoning && this.thoughts) parts.push({ text: reasoning, thought: true });
    const text = asString(delta?.content);
    if (text) parts.push({ text });
    for (const call of asArray(delta?.tool_calls) ?? []) this.gather(asObject(call));
    const finish = asString(choice?.finish_reason);
    if (finish) this.finishReason = finish;
    return parts.length > 0 ? [this.chunk(parts, null, null)] : [];
  }

  end(): SseOut[] {
    if (this.terminal || this.finishReason === null) return [];
    return this.finish();
  }

  private chunk(parts: Json[], finishReason: string | null, usage: Json | null): SseOut {
    return { event: null, data: JSON.stringify(geminiAnswer(parts, finishReason, usage, this.ids)) };
  }

  private gather(call: Json | null): void {
    if (!call) return;
    const fn = asObject(call.function);
    const id = asString(call.id);
    const index = asNumber(call.index);
    const key = index !== null ? `i${index}` : id !== null ? `id${id}` : (this.lastKey ?? 'i0');
    this.lastKey = key;
    let pending = this.calls.get(key);
    if (!pending) {
      pending = { id, name: '', args: '', signature: null };
      this.calls.set(key, pending);
    }
    pending.id = pending.id ?? id;
    // The name comes in the first fragment; a server that repeats it must not double it.
    if (pending.name === '') pending.name = asString(fn?.name) ?? '';
    pending.args += asString(fn?.arguments) ?? '';
    pending.signature = pending.signature ?? chatCallSignature(call);
  }

  private finish(): SseOut[] {
    this.terminal = true;
    const parts: Json[] = [];
    let position = 0;
    for (const call of this.calls.values()) {
      const id = call.id ?? toolCallIdFor(this.context.idSeed, position);
      parts.push(callPart(id, call.name, argsOf(call.args), call.signature));
      position++;
    }
    // Google's last chunk has a content even when nothing is left to say.
    if (parts.length === 0) parts.push({ text: '' });
    return [this.chunk(parts, geminiFinishFromChat(this.finishReason), geminiUsageFromChat(this.usage))];
  }

  private fail(error: unknown): SseOut[] {
    this.terminal = true;
    const body = asObject(error);
    const code = body?.code;
    const status =
      typeof code === 'number' && code >= 400 && code <= 599
        ? code
        : httpStatusOfAnthropicType(anthropicErrorType(asString(body?.type), asString(code)));
    return geminiStreamError(status, asString(body?.message) ?? asString(error) ?? 'upstream stream error');
  }
}
