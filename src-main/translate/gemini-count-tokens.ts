import type { Json, RequestTranslation } from './translate-types';
import { asNumber, asObject } from './json-narrow';
import { estimateInputTokens } from './count-tokens-estimate';
import { given, pick } from './gemini-fields';
import { geminiRequestFromMessages } from './gemini-request-from-messages';
import { messagesRequestFromGemini } from './messages-request-from-gemini';

/**
 * `models/{model}:countTokens` both ways. Google's request is `{contents}` or, with the system
 * instruction and tools counted too, `{generateContentRequest: {model, contents, …}}`; its answer is
 * `{totalTokens}`. A Gemini client served by an Anthropic connection is answered from Anthropic's
 * count_tokens (`{input_tokens}`), by any other connection from the estimate in
 * count-tokens-estimate.ts; an Anthropic client's count_tokens can be asked of a Gemini connection.
 */

/** The generateContent request a countTokens body counts (its `generateContentRequest`, else its contents). */
function countedRequest(body: Json): Json {
  const inner = asObject(pick(body, 'generateContentRequest'));
  return inner ?? { contents: pick(body, 'contents') ?? [] };
}

/** A Gemini countTokens body → an Anthropic count_tokens body (what it counts; no max_tokens). */
export function anthropicCountRequestFromGemini(body: Json, model: string): RequestTranslation {
  const translated = messagesRequestFromGemini(countedRequest(body), { model, reasoning: true });
  if (!translated.ok) return translated;
  const out: Json = { model, messages: translated.body.messages };
  for (const key of ['system', 'tools', 'tool_choice', 'thinking'] as const) {
    if (given(translated.body[key])) out[key] = translated.body[key];
  }
  return { ok: true, body: out, dropped: translated.dropped };
}

/** Anthropic's count_tokens answer → Google's. */
export function geminiCountAnswerFromAnthropic(answer: Json): Json {
  return { totalTokens: asNumber(answer.input_tokens) ?? 0 };
}

/** The estimate for a Gemini countTokens body, as Google's answer; null when the body cannot be read. */
export function estimatedGeminiCount(body: Json): Json | null {
  const translated = messagesRequestFromGemini(countedRequest(body), { model: '', reasoning: true });
  return translated.ok ? { totalTokens: estimateInputTokens(translated.body) } : null;
}

/** An Anthropic count_tokens body → Gemini's countTokens body (system and tools counted too). */
export function geminiCountRequestFromAnthropic(body: Json, model: string): RequestTranslation {
  const { max_tokens: _max, ...rest } = body;
  const translated = geminiRequestFromMessages(rest, { model, reasoning: true });
  if (!translated.ok) return translated;
  const inner: Json = { model: `models/${model}`, ...translated.body };
  return { ok: true, body: { generateContentRequest: inner }, dropped: translated.dropped };
}

/** Google's countTokens answer → Anthropic's count_tokens answer. */
export function anthropicCountAnswerFromGemini(answer: Json): Json {
  return { input_tokens: asNumber(pick(answer, 'totalTokens')) ?? 0 };
}
