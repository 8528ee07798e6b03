import type { Json } from './translate-types';
import { asObject, asString } from './json-narrow';
import { pick } from './gemini-fields';
import { splitToolId } from './gemini-ids';

/**
 * The `GenerateContentResponse` Gemini clients read, whole or as one stream chunk: one candidate
 * (index 0) with the model's parts, `finishReason` once the turn ended, `usageMetadata`, the model
 * the client asked for as `modelVersion`, and `responseId`. A stream chunk has the same shape; the
 * last one carries the finish reason and the usage.
 */
export interface AnswerIds {
  responseId: string;
  modelVersion: string;
}

export function geminiAnswer(parts: Json[], finishReason: string | null, usage: Json | null, ids: AnswerIds): Json {
  const candidate: Json = { content: { parts, role: 'model' } };
  if (finishReason !== null) candidate.finishReason = finishReason;
  candidate.index = 0;
  const out: Json = { candidates: [candidate] };
  if (usage !== null) out.usageMetadata = usage;
  out.modelVersion = ids.modelVersion;
  out.responseId = ids.responseId;
  return out;
}

/** Whether the client asked for thought parts (`thinkingConfig.includeThoughts`); Gemini sends none otherwise. */
export function wantsThoughts(request: Json): boolean {
  const config = asObject(pick(request, 'generationConfig'));
  return pick(asObject(pick(config, 'thinkingConfig')), 'includeThoughts') === true;
}

/** Tool-call arguments (JSON text) as the object Gemini's `args` is; text that does not parse is `{}`. */
export function argsOf(text: unknown): Json {
  const direct = asObject(text);
  if (direct) return direct;
  const raw = asString(text);
  if (!raw) return {};
  try {
    return asObject(JSON.parse(raw)) ?? {};
  } catch {
    // A call cut off at max tokens: Gemini has no half arguments to give either.
    return {};
  }
}

/**
 * A `functionCall` part. An id that carries a signature (gemini-ids.ts: an answer that already went
 * through a Gemini → Chat or Anthropic step) gives both back, so a Gemini client sees its own call.
 */
export function callPart(clientId: string, name: string, args: Json, signature: string | null = null): Json {
  const split = splitToolId(clientId);
  const part: Json = { functionCall: { id: split.id, name, args } };
  const carried = signature ?? split.signature;
  if (carried !== null) part.thoughtSignature = carried;
  return part;
}

/** The signature Google's OpenAI-compatible endpoint puts on a Chat tool call, when there is one. */
export function chatCallSignature(call: Json | null): string | null {
  return asString(asObject(asObject(call?.extra_content)?.google)?.thought_signature);
}
