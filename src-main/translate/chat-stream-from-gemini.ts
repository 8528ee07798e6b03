import type { Json, ResponseContext, SseOut, StreamTranslator, StreamTranslatorFactory } from './translate-types';
import { asObject, parseObject } from './json-narrow';
import { CREATED_UNKNOWN } from './chat-response-from-messages';
import { readCandidate } from './gemini-candidate';
import { openaiErrorFromGemini, readGeminiError } from './gemini-errors';
import { chatFinishFromGemini } from './gemini-finish';
import { clientToolId } from './gemini-ids';
import { chatUsageFromGemini } from './gemini-usage';
import { completionIdFromMessages, toolCallIdFor } from './ids';
import { chatData, chatDone } from './sse-out';

/**
 * Gemini stream chunks → chat.completion.chunk lines. The first chunk says `role:"assistant"`; text
 * and thought parts become content and reasoning deltas; a function call (Gemini sends it whole)
 * is one tool-call delta with all its arguments, numbered in order of appearance. The chunk with
 * the finish reason ends the answer: finish chunk, the usage chunk when the client asked
 * `stream_options.include_usage`, `[DONE]`. An error chunk becomes `data: {"error":…}`.
 */
export const chatStreamFromGemini: StreamTranslatorFactory = (context) => new ChatFromGeminiStream(context);

class ChatFromGeminiStream implements StreamTranslator {
  private id: string;
  private started = false;
  private terminal = false;
  private calls = 0;
  private usage: Json | null = null;
  private readonly includeUsage: boolean;

  constructor(private readonly context: ResponseContext) {
    this.id = completionIdFromMessages(null, context.idSeed);
    this.includeUsage = asObject(context.request.stream_options)?.include_usage === true;
  }

  push(_event: string | null, data: string): SseOut[] {
    if (this.terminal) return [];
    const body = parseObject(data);
    if (!body) return [];
    const error = readGeminiError(body);
    if (error && body.candidates === undefined) {
      this.terminal = true;
      return [chatData(openaiErrorFromGemini(error))];
    }
    const answer = readCandidate(body);
    if (answer.usage) this.usage = answer.usage;
    const out: SseOut[] = [];
    if (!this.started) {
      this.started = true;
      if (answer.responseId) this.id = completionIdFromMessages(answer.responseId, this.context.idSeed);
      out.push(this.chunk({ role: 'assistant', content: '' }, null));
    }
    for (const part of answer.parts) {
      if (part.kind === 'text' && part.text) out.push(this.chunk({ content: part.text }, null));
      else if (part.kind === 'thought' && part.text) out.push(this.chunk({ reasoning_content: part.text }, null));
      else if (part.kind === 'call') {
        const index = this.calls++;
        const id = clientToolId(part.id ?? toolCallIdFor(this.context.idSeed, index), part.signature);
        const fn = { name: part.name, arguments: JSON.stringify(part.args) };
        out.push(this.chunk({ tool_calls: [{ index, id, type: 'function', function: fn }] }, null));
      }
    }
    if (answer.finishReason !== null) this.finish(chatFinishFromGemini(answer.finishReason, this.calls > 0), out);
    return out;
  }

  end(): SseOut[] {
    // The finish reason is Gemini's last word: a stream without one did not end, and says nothing more.
    return [];
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

  private finish(finishReason: string, out: SseOut[]): void {
    this.terminal = true;
    out.push(this.chunk({}, finishReason));
    if (this.includeUsage) {
      out.push(
        chatData({
          id: this.id,
          object: 'chat.completion.chunk',
          created: CREATED_UNKNOWN,
          model: this.context.clientModel,
          choices: [],
          usage: chatUsageFromGemini(this.usage),
        }),
      );
    }
    out.push(chatDone());
  }
}
