import { statusOf, type AppError } from '../../../src-shared/contract/errors';
import { HELD_MS_HEADER } from './cooldown-hold';
import { sendClientError } from '../relay/client-errors';
import { formatFailoverHeader } from './failover-policy';
import { endStreamWithError, relayResponse } from '../relay/relay';
import { relayErrorResponse } from '../relay/relay-error';
import type { Answer } from './attempt';
import type { RequestFrame } from './frame';
import { QUOTA_HEADER, type Ended } from './learn';

/** The response header naming the connection a session pin chose (issue 9 §3). */
export const SESSION_PIN_HEADER = 'x-leeway-session-pin';
/** Issue 12: `client->upstream` wire formats of a translated answer (`anthropic->openai`). */
export const TRANSLATED_HEADER = 'x-leeway-translated';
export const WARNING_HEADER = 'x-leeway-warning';

/** Leeway's own response headers: who served it, who was tried first, and whether a pin decided. */
function leewayHeaders(frame: RequestFrame, connection: string | null, pinned: boolean): Record<string, string> {
  const extra: Record<string, string> = {};
  if (connection !== null) extra['x-leeway-connection'] = connection;
  if (frame.hops.length > 0) extra['x-leeway-failover'] = formatFailoverHeader(frame.hops);
  if (pinned && connection !== null) extra[SESSION_PIN_HEADER] = connection;
  if (frame.translated !== null) extra[TRANSLATED_HEADER] = frame.translated;
  if (frame.warning !== null) extra[WARNING_HEADER] = frame.warning;
  if (frame.quotaHeader !== null) extra[QUOTA_HEADER] = frame.quotaHeader;
  return extra;
}

/**
 * Issue 21 §13: a stream opened for a wait sent its headers before any connection was picked, so
 * what those headers would have said comes as SSE comments at its end (and in the activity row).
 * Null when the headers were the real ones.
 */
function heldTrailer(frame: RequestFrame, connection: string | null, pinned = false): string | null {
  if (!frame.keepAlive.committed) return null;
  const headers = leewayHeaders(frame, connection, pinned);
  if (frame.held !== null) headers[HELD_MS_HEADER] = String(Math.round(frame.held.heldMs));
  let text = '';
  for (const name in headers) text += `: ${name}: ${headers[name] ?? ''}\n`;
  return text === '' ? null : `${text}\n`;
}

/** Leeway's own error, in the client's format; only an SSE event once a keep-alive stream is open. */
export function answerError(
  frame: RequestFrame,
  error: AppError,
  connection: string | null = null,
  reason?: string,
): Ended {
  const { res, endpoint } = frame.request;
  if (frame.keepAlive.committed) {
    endStreamWithError(res, endpoint.wire, error.message, error.code, heldTrailer(frame, connection));
    // The client saw a 200 and then this error event: the row tells the status the failure stands for.
    return { connection, status: statusOf(error), outcome: null, errorCode: reason ?? error.code };
  }
  sendClientError(res, endpoint.format, error);
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
        trailer: heldTrailer(frame, name, pinned),
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
        reset: answer.reset,
      });
      return { connection: name, status: answer.status, outcome: null, errorCode: answer.reason };
    }
  }
}
