import type { IncomingMessage, ServerResponse } from 'node:http';
import { statusOf } from '../../src-shared/contract/errors';
import type { Router } from '../api/router';
import { sendError, sendJson } from './http-replies';
import { MAX_RPC_BODY_BYTES, readJsonBody } from './read-json-body';

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
  // The JSON-only and same-origin rules ran before this, in cross-site-guard, for every admin route.
  const body = await readJsonBody(req, MAX_RPC_BODY_BYTES);
  if (!body.ok) {
    // The rest of an oversized body is not worth reading; close the connection after answering.
    sendError(res, body.error, body.error.code === 'body_too_large' ? { connection: 'close' } : {});
    return;
  }
  const result = await router.call(method, body.value === null ? undefined : body.value);
  sendJson(res, result.ok ? 200 : statusOf(result.error), result);
}
