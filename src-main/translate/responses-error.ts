import { asObject, asString } from './json-narrow';
import type { Json } from './translate-types';

/**
 * The Responses stream's failure: an `error` event, then `response.failed` whose
 * `response.error` carries `{code, message}`. Codex 0.169 reads only the latter (an `error` event
 * alone reads to it as a stream closed early); it retries on `rate_limit_exceeded` and
 * `server_is_overloaded`, and shows `message` otherwise. Both are sent, as the real API does.
 */

export interface ResponsesError {
  code: string;
  message: string;
}

/** A chat-side error object (`{message, type, code}`, as OpenAI-compatible streams send) → the Responses one. */
export function responsesErrorOf(value: unknown): ResponsesError {
  if (typeof value === 'string' && value !== '') return { code: 'server_error', message: value };
  const error = asObject(value);
  const message = asString(error?.message) ?? 'The upstream reported an error';
  return { code: responsesErrorCode(asString(error?.type), error?.code), message };
}

export function responsesErrorCode(type: string | null, code: unknown): string {
  if (typeof code === 'string' && code !== '') return code;
  // Some gateways (OpenRouter) put the HTTP status in `code`.
  if (code === 429) return 'rate_limit_exceeded';
  if (code === 503 || code === 529) return 'server_is_overloaded';
  switch (type) {
    case 'rate_limit_error':
    case 'rate_limit_exceeded':
    case 'tokens':
    case 'requests':
      return 'rate_limit_exceeded';
    case 'overloaded_error':
      return 'server_is_overloaded';
    default:
      // An OpenAI-style type (insufficient_quota, server_error…) reads the same as a code.
      return type && type !== '' ? type : 'server_error';
  }
}

/** The `error` event's fields (the caller adds `sequence_number`). */
export function errorEventFields(error: ResponsesError): Json {
  return { code: error.code, message: error.message, param: null };
}
