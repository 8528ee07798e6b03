import type { ServerResponse } from 'node:http';
import { statusOf, type AppError } from '../../src-shared/contract/errors';

/** The error dialect a client understands, decided by the endpoint it called. */
export type ClientFormat = 'anthropic' | 'openai';

function anthropicType(status: number): string {
  if (status === 400 || status === 405 || status === 415) return 'invalid_request_error';
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limit_error';
  if (status === 529 || status === 503) return 'overloaded_error';
  if (status === 504) return 'timeout_error';
  return 'api_error';
}

function openaiType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/** Body in the client's own error shape; Headroom's details ride under a `headroom` field. */
export function errorBody(format: ClientFormat, error: AppError): Record<string, unknown> {
  const status = statusOf(error);
  const headroom = { code: error.code, ...(error.details === undefined ? {} : { details: error.details }) };
  if (format === 'anthropic') {
    return { type: 'error', error: { type: anthropicType(status), message: error.message }, headroom };
  }
  return { error: { message: error.message, type: openaiType(status), code: error.code, param: null }, headroom };
}

export function sendClientError(res: ServerResponse, format: ClientFormat, error: AppError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify(errorBody(format, error));
  const headers: Record<string, string | number> = {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  };
  if (error.retryAfterMs !== undefined) headers['retry-after'] = Math.max(1, Math.ceil(error.retryAfterMs / 1000));
  res.writeHead(statusOf(error), headers);
  res.end(body);
}
