import { STATUS_CODES, type ServerResponse } from 'node:http';
import { statusOf, type AppError } from '../../../src-shared/contract/errors';
import { googleStatusOf } from '../../translate/error-types';
import { retryHintsOf } from './retry-hints';

/** The error dialect a client understands, decided by the endpoint it called. */
export type ClientFormat = 'anthropic' | 'openai' | 'gemini';

/** Anthropic's error `type` for the statuses it names. */
const ANTHROPIC_TYPES = new Map<number, string>([
  [401, 'authentication_error'],
  [403, 'permission_error'],
  [404, 'not_found_error'],
  [408, 'timeout_error'],
  [504, 'timeout_error'],
  [413, 'request_too_large'],
  [429, 'rate_limit_error'],
  [529, 'overloaded_error'],
  [503, 'overloaded_error'],
]);

/** OpenAI's error `type` for the statuses it names. */
const OPENAI_TYPES = new Map<number, string>([
  [401, 'authentication_error'],
  [403, 'permission_error'],
  [404, 'not_found_error'],
  [408, 'timeout_error'],
  [429, 'rate_limit_error'],
]);

/** Anthropic's error `type` for a status. */
export function anthropicTypeOf(status: number): string {
  return ANTHROPIC_TYPES.get(status) ?? (status >= 400 && status < 500 ? 'invalid_request_error' : 'api_error');
}

/** OpenAI's error `type` for a status. */
export function openaiTypeOf(status: number): string {
  return OPENAI_TYPES.get(status) ?? (status >= 500 ? 'server_error' : 'invalid_request_error');
}

/** Body in the client's own error shape; Leeway's details ride under a `leeway` field. */
export function errorBody(format: ClientFormat, error: AppError): Record<string, unknown> {
  const status = statusOf(error);
  const leeway = { code: error.code, ...(error.details === undefined ? {} : { details: error.details }) };
  if (format === 'anthropic') {
    return { type: 'error', error: { type: anthropicTypeOf(status), message: error.message }, leeway };
  }
  // Issue 23: Google's envelope; the SDKs read `code` and `status`.
  if (format === 'gemini')
    return { error: { code: status, message: error.message, status: googleStatusOf(status) }, leeway };
  return { error: { message: error.message, type: openaiTypeOf(status), code: error.code, param: null }, leeway };
}

function errorHeaders(status: number, error: AppError, body: string): Record<string, string | number> {
  const headers: Record<string, string | number> = {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  };
  const hints = retryHintsOf(status, error.retryAfterMs, error.shouldRetry);
  if (hints.retryAfterSeconds !== null) headers['retry-after'] = hints.retryAfterSeconds;
  if (hints.shouldRetry !== null) headers['x-should-retry'] = hints.shouldRetry;
  return headers;
}

/** Answers with Leeway's own error, with the retry hints SDKs honour (retry-hints.ts). */
export function sendClientError(res: ServerResponse, format: ClientFormat, error: AppError): void {
  // A late second error (the body failing after we already answered) must not cut the first answer.
  if (res.writableEnded) return;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const status = statusOf(error);
  const body = JSON.stringify(errorBody(format, error));
  const headers = errorHeaders(status, error, body);
  res.writeHead(status, headers);
  res.end(body);
}

/** The same answer as raw bytes, for a socket that has no ServerResponse (Node could not parse the request). */
export function rawClientError(format: ClientFormat, error: AppError): string {
  const status = statusOf(error);
  const body = JSON.stringify(errorBody(format, error));
  const headers = { ...errorHeaders(status, error, body), connection: 'close' };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n${lines.join('')}\r\n${body}`;
}
