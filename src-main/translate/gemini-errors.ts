import type { Json, SseOut } from './translate-types';
import { asArray, asNumber, asObject, asString, parseObject } from './json-narrow';
import { readErrorMessage } from './error-messages';
import { anthropicErrorType, googleStatusOf, httpStatusOfAnthropicType, openaiErrorKind } from './error-types';

/**
 * Google's error envelope, `{"error":{"code":429,"message":"…","status":"RESOURCE_EXHAUSTED",
 * "details":[…]}}`, both ways. A Gemini client reads `code` and `status` (the SDK throws an ApiError
 * with `code`; Gemini CLI picks retry or give-up from the status and the details); an Anthropic or
 * OpenAI client reads its own envelope's type.
 */
export interface GeminiError {
  code: number;
  status: string;
  message: string;
  details: unknown[];
}

/** The envelope for an HTTP status and message. */
export function geminiErrorBody(code: number, message: string, details: unknown[] = []): Json {
  const error: Json = { code, message, status: googleStatusOf(code) };
  if (details.length > 0) error.details = details;
  return { error };
}

/** A Google error object (`{error:{code?,message,status?}}`), or null when the value is none. */
export function readGeminiError(value: Json | null, httpStatus: number | null = null): GeminiError | null {
  const error = asObject(value?.error);
  const message = asString(error?.message);
  if (!error || message === null) return null;
  const code = asNumber(error.code) ?? httpStatus ?? 500;
  return {
    code,
    status: asString(error.status) ?? googleStatusOf(code),
    message,
    details: asArray(error.details) ?? [],
  };
}

/**
 * Any upstream error body as a Gemini client reads it: Google's own as it came (its details hold the
 * retry delay and quota names), any other dialect as Google's envelope with the upstream's message.
 */
export function geminiErrorFromBody(bodyText: string, httpStatus: number): Json {
  const parsed = bodyText.trimStart().startsWith('{') ? parseObject(bodyText) : null;
  const google = readGeminiError(parsed, httpStatus);
  if (parsed && google && asString(asObject(parsed.error)?.status) !== null) return parsed;
  const read = readErrorMessage(bodyText);
  return geminiErrorBody(httpStatus, read?.message ?? `The upstream answered ${httpStatus}`);
}

/** A Google error → Anthropic's envelope. */
export function anthropicErrorFromGemini(error: GeminiError): Json {
  return { type: 'error', error: { type: anthropicTypeOfGemini(error), message: error.message } };
}

/** A Google error → OpenAI's envelope (the Google status kept as `code` when OpenAI has no better one). */
export function openaiErrorFromGemini(error: GeminiError): Json {
  const kind = openaiErrorKind(anthropicTypeOfGemini(error));
  const code = kind.code === 'api_error' ? error.status : kind.code;
  return { error: { message: error.message, type: kind.type, code, param: null } };
}

function anthropicTypeOfGemini(error: GeminiError): string {
  const byStatus = anthropicErrorType(error.status, null);
  if (byStatus !== 'api_error') return byStatus;
  return error.code === 429 ? 'rate_limit_error' : error.code === 503 ? 'overloaded_error' : 'api_error';
}

/**
 * What a translated Gemini stream ends with on an error: Google's envelope bare, without SSE framing,
 * as Google ends a failing stream. Both SDK lines throw it as an ApiError whose status is
 * `error.code` when a network read holds exactly that JSON, which is how it arrives after the
 * answer's earlier events (it is written as a piece of its own). Read together with earlier events,
 * both end with an "incomplete JSON" error: never a silent end. A `data:` event instead would be
 * read by SDK 1.x (in Gemini CLI 0.61) as a chunk without candidates, the error lost.
 */
export function geminiStreamError(code: number, message: string): SseOut[] {
  return [{ event: null, data: JSON.stringify(geminiErrorBody(code, message)), raw: true }];
}

/** An Anthropic stream `error` object (`{type, message}`) → the Gemini stream error. */
export function geminiStreamErrorFromAnthropic(error: Json | null): SseOut[] {
  const type = asString(error?.type);
  return geminiStreamError(httpStatusOfAnthropicType(type), asString(error?.message) ?? 'upstream stream error');
}
