import { STATUS_CODES, type ServerResponse } from 'node:http';
import { statusOf, type AppError } from '../../../src-shared/contract/errors';
import { googleStatusOf } from '../../translate/error-types';
import { retryHintsOf } from './retry-hints';

/** The error dialect a client understands, decided by the endpoint it called. */
export type ClientFormat = 'anthropic' | 'openai' | 'gemini';

/** Anthropic's error `type` for a status. */
export function anthropicTypeOf(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 408 || status === 504) return 'timeout_error';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limit_error';
  if (status === 529 || status === 503) return 'overloaded_error';
  if (status >= 400 && status < 500) return 'invalid_request_error';
  return 'api_error';
}

/** OpenAI's error `type` for a status. */
export function openaiTypeOf(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 408) return 'timeout_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
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
