import type { IncomingMessage, ServerResponse } from 'node:http';
import { statusOf } from '../../src-shared/contract/errors';
import type { Router } from '../api/router';
import { sendError, sendJson } from './http-replies';
import { isJsonContentType, MAX_RPC_BODY_BYTES, readJsonBody } from './read-json-body';

/**
 * `POST /api/rpc/:method`: the HTTP form of `router.call`, answering the Result as JSON
 * with 200 for ok and the error's own status otherwise.
 */
export async function handleRpc(
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  router: Router,
): Promise<void> {
  if (req.method !== 'POST') {
    sendError(res, { code: 'method_not_allowed', message: 'Use POST for /api/rpc' }, { allow: 'POST' });
    return;
  }
  // A cross-site form can only send simple content types; requiring JSON forces a CORS preflight we never grant.
  if (!isJsonContentType(req.headers['content-type'])) {
    req.resume();
    sendError(res, { code: 'invalid_input', message: 'Content-Type must be application/json', status: 415 });
    return;
  }
  const body = await readJsonBody(req, MAX_RPC_BODY_BYTES);
  if (!body.ok) {
    // The rest of an oversized body is not worth reading; close the connection after answering.
    sendError(res, body.error, body.error.code === 'body_too_large' ? { connection: 'close' } : {});
    return;
  }
  const result = await router.call(method, body.value === null ? undefined : body.value);
  sendJson(res, result.ok ? 200 : statusOf(result.error), result);
}
