import { statusOf, type AppError } from '../../../src-shared/contract/errors';
import { HELD_MS_HEADER } from './cooldown-hold';
import { sendClientError } from '../relay/client-errors';
import { formatFailoverHeader } from './failover-policy';
import { endStreamWithError, relayResponse } from '../relay/relay';
import { relayErrorResponse } from '../relay/relay-error';
import type { RelayOutcome } from '../relay/relay';
import type { Answer } from './attempt-record';
import type { RequestFrame } from './frame';
import type { RequestTrail } from './trail';

/** How a request ended, for the activity log. */
export interface Ended {
  connection: string | null;
  status: number;
  outcome: RelayOutcome | null;
  errorCode: string | null;
}

/** What a served answer's headers add: whether the session's pin decided, and the quota mark (QPIPE-7). */
export interface ServedMarks {
  pinned: boolean;
  quota: string | null;
}

const NO_MARKS: ServedMarks = { pinned: false, quota: null };

/** The header a served request a pool covers carries: whether its key was penalized (QPIPE-7). */
export const QUOTA_HEADER = 'x-leeway-quota';

/** The response header naming the connection a session pin chose (issue 9 §3). */
export const SESSION_PIN_HEADER = 'x-leeway-session-pin';
/** Issue 12: `client->upstream` wire formats of a translated answer (`anthropic->openai`). */
export const TRANSLATED_HEADER = 'x-leeway-translated';
export const WARNING_HEADER = 'x-leeway-warning';

/**
 * Leeway's own response headers: who served it, who was tried first, whether a pin decided; carried
 * with the upstream's rather than `res.setHeader`, which would push every later `writeHead` onto
 * Node's slow path.
 */
function leewayHeaders(
  frame: RequestFrame,
  trail: RequestTrail,
  connection: string | null,
  marks: ServedMarks,
): Record<string, string> {
  const extra: Record<string, string> = {};
  if (connection !== null) extra['x-leeway-connection'] = connection;
  if (trail.hops.length > 0) extra['x-leeway-failover'] = formatFailoverHeader(trail.hops);
  if (marks.pinned && connection !== null) extra[SESSION_PIN_HEADER] = connection;
  if (trail.translated !== null) extra[TRANSLATED_HEADER] = trail.translated;
  if (frame.warning !== null) extra[WARNING_HEADER] = frame.warning;
  if (marks.quota !== null) extra[QUOTA_HEADER] = marks.quota;
  return extra;
}

/**
 * Issue 21 §13: a stream opened for a wait sent its headers before any connection was picked, so
 * what those headers would have said comes as SSE comments at its end (and in the activity row).
 * Null when the headers were the real ones.
 */
function heldTrailer(
  frame: RequestFrame,
  trail: RequestTrail,
  connection: string | null,
  marks: ServedMarks = NO_MARKS,
): string | null {
  if (!frame.keepAlive.committed) return null;
  const headers = leewayHeaders(frame, trail, connection, marks);
  if (trail.held !== null) headers[HELD_MS_HEADER] = String(Math.round(trail.held.heldMs));
  let text = '';
  for (const name in headers) text += `: ${name}: ${headers[name] ?? ''}\n`;
  return text === '' ? null : `${text}\n`;
}

/** Leeway's own error, in the client's format; only an SSE event once a keep-alive stream is open. */
export function answerError(
  frame: RequestFrame,
  trail: RequestTrail,
  error: AppError,
  connection: string | null = null,
  reason?: string,
): Ended {
  const { res, endpoint } = frame.request;
  if (frame.keepAlive.committed) {
    endStreamWithError(res, endpoint.wire, error.message, error.code, heldTrailer(frame, trail, connection));
    // The client saw a 200 and then this error event: the row tells the status the failure stands for.
    return { connection, status: statusOf(error), outcome: null, errorCode: reason ?? error.code };
  }
  sendClientError(res, endpoint.format, error);
  return { connection, status: res.statusCode, outcome: null, errorCode: reason ?? error.code };
}

/** The answer stage: relays an upstream answer (or its error) or tells Leeway's own error. */
export async function sendAnswer(
  frame: RequestFrame,
  trail: RequestTrail,
  answer: Answer,
  marks: ServedMarks = NO_MARKS,
): Promise<Ended> {
  const { res, endpoint } = frame.request;
  switch (answer.kind) {
    case 'error':
      return answerError(frame, trail, answer.error, answer.connection, answer.reason);
    case 'relay': {
      const name = answer.target.connection.view.name;
      frame.keepAlive.stop();
      const outcome = await relayResponse(res, {
        upstream: answer.upstream,
        start: answer.held,
        tap: answer.tap,
        headers: leewayHeaders(frame, trail, name, marks),
        format: endpoint.wire,
        startedAt: frame.request.startedAt,
        watch: answer.watch,
        secrets: answer.secrets,
        trailer: heldTrailer(frame, trail, name, marks),
      });
      return { connection: name, status: answer.upstream.statusCode, outcome, errorCode: outcome.errorCode };
    }
    case 'local': {
      frame.keepAlive.stop();
      if (!res.headersSent) {
        const headers = { ...leewayHeaders(frame, trail, answer.connection, marks), ...answer.headers };
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
        extraHeaders: leewayHeaders(frame, trail, name, NO_MARKS),
        secrets: answer.secrets,
        reset: answer.reset,
      });
      return { connection: name, status: answer.status, outcome: null, errorCode: answer.reason };
    }
  }
}
