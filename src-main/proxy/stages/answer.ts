import type { AppError } from '../../../src-shared/contract/errors';
import { sendClientError } from '../client-errors';
import { formatFailoverHeader } from '../failover-policy';
import { endStreamWithError, relayResponse } from '../relay';
import { relayErrorResponse } from '../relay-error';
import type { Answer } from './attempt';
import type { RequestFrame } from './frame';
import { QUOTA_HEADER, type Ended } from './learn';

/** The response header naming the connection a session pin chose (issue 9 §3). */
export const SESSION_PIN_HEADER = 'x-leeway-session-pin';
/** Issue 12: `client->upstream` wire formats of a translated answer (`anthropic->openai`). */
export const TRANSLATED_HEADER = 'x-leeway-translated';
export const WARNING_HEADER = 'x-leeway-warning';

/** Leeway's own response headers: who served it, who was tried first, and whether a pin decided. */
function leewayHeaders(frame: RequestFrame, connection: string, pinned: boolean): Record<string, string> {
  const extra: Record<string, string> = { 'x-leeway-connection': connection };
  if (frame.hops.length > 0) extra['x-leeway-failover'] = formatFailoverHeader(frame.hops);
  if (pinned) extra[SESSION_PIN_HEADER] = connection;
  if (frame.translated !== null) extra[TRANSLATED_HEADER] = frame.translated;
  if (frame.warning !== null) extra[WARNING_HEADER] = frame.warning;
  if (frame.quotaHeader !== null) extra[QUOTA_HEADER] = frame.quotaHeader;
  return extra;
}

/** Leeway's own error, in the client's format; only an SSE event once a keep-alive stream is open. */
export function answerError(
  frame: RequestFrame,
  error: AppError,
  connection: string | null = null,
  reason?: string,
): Ended {
  const { res, endpoint } = frame.request;
  if (frame.keepAlive.committed) endStreamWithError(res, endpoint.wire, error.message, error.code);
  else sendClientError(res, endpoint.format, error);
  return { connection, status: res.statusCode, outcome: null, errorCode: reason ?? error.code };
}

/** The answer stage: relays an upstream answer (or its error) or tells Leeway's own error. */
export async function sendAnswer(frame: RequestFrame, answer: Answer, pinned: boolean): Promise<Ended> {
  const { res, endpoint } = frame.request;
  switch (answer.kind) {
    case 'error':
      return answerError(frame, answer.error, answer.connection, answer.reason);
    case 'relay': {
      const name = answer.target.connection.view.name;
      frame.keepAlive.stop();
      const outcome = await relayResponse(res, {
        upstream: answer.upstream,
        start: answer.held,
        tap: answer.tap,
        headers: leewayHeaders(frame, name, pinned),
        format: endpoint.wire,
        startedAt: frame.request.startedAt,
        watch: answer.watch,
        secrets: answer.secrets,
      });
      return { connection: name, status: answer.upstream.statusCode, outcome, errorCode: outcome.errorCode };
    }
    case 'local': {
      frame.keepAlive.stop();
      if (!res.headersSent) {
        const headers = { ...leewayHeaders(frame, answer.connection, pinned), ...answer.headers };
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(answer.body),
          ...headers,
        });
      }
      res.end(answer.body);
      return { connection: answer.connection, status: 200, outcome: null, errorCode: null };
    }
    case 'upstream-error': {
      const name = answer.target.connection.view.name;
      relayErrorResponse(res, answer.upstream, answer.body, {
        format: endpoint.format,
        connection: name,
        status: answer.status,
        retryAfterMs: answer.retryAfterMs,
        extraHeaders: leewayHeaders(frame, name, false),
        secrets: answer.secrets,
      });
      return { connection: name, status: answer.status, outcome: null, errorCode: answer.reason };
    }
  }
}
