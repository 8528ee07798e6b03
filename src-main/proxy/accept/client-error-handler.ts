import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { AppError } from '../../../src-shared/contract/errors';
import { rawClientError, sendClientError } from '../relay/client-errors';
import { guessFormat, guessRawFormat, pathnameOf } from '../relay/client-format';
import {
  CLOSE_GRACE_MS,
  HTTP_PHASE,
  closeWithRaw,
  endWithRaw,
  trackRequest,
  type ClientLimits,
} from './client-sockets';
import { socketStateOf } from './socket-state';

/** What Node's HTTP parser attaches to the errors it emits as 'clientError'. */
interface ParserError extends Error {
  code?: string;
  rawPacket?: Buffer;
}

/**
 * The refusal for a request Node could not parse; the parser's code names the fault without quoting
 * bytes. `details.phase: 'http'` tells the client no endpoint was reached (its format is a guess).
 */
export function protocolError(code: string | undefined): AppError {
  const details = HTTP_PHASE;
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { code: 'invalid_input', status: 431, message: 'The request headers are too large', details };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { code: 'body_too_large', message: 'The chunk extensions of the request body are too large', details };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { code: 'request_timeout', message: 'The request headers did not arrive in time', details };
    default:
      return { code: 'invalid_input', message: `Malformed HTTP request (${code ?? 'parse error'})`, details };
  }
}

function onClientError(err: ParserError, socket: Socket): void {
  const state = socketStateOf(socket);
  if (err.code === 'ECONNRESET' || !socket.writable || !state) {
    socket.destroy();
    return;
  }
  // Every later chunk fails to parse again; the answer already chosen (and its close timer) stands.
  if (state.closing) return;
  const error = protocolError(err.code);
  const req = state.reading;
  const res = state.readingRes;
  if (req && res && !req.complete) {
    if (res.writableEnded) {
      // Already answered (and told to close), perhaps queued behind a pipelined answer: let it go out.
      state.closing = true;
      if (state.inFlight === 0) socket.setTimeout(CLOSE_GRACE_MS);
      return;
    }
    // The fault is in this request's body (bad chunking): its own response carries the answer.
    if (res.headersSent) return void socket.destroy();
    state.closing = true;
    res.setHeader('connection', 'close');
    sendClientError(res, guessFormat(req, pathnameOf(req.url ?? '/')), error);
    socket.setTimeout(CLOSE_GRACE_MS);
    return;
  }
  closeWithRaw(state, rawClientError(guessRawFormat(err.rawPacket), error));
}

/**
 * Answers what Node would otherwise answer with a bare status line or silence: malformed HTTP
 * ('clientError': 400, 431 for oversized headers, 408 for headers that never end), CONNECT (405)
 * and unsupported `Expect` values (417), each as a short JSON error in the client's format.
 */
export function installProtocolErrorAnswers(server: Server, limits: () => ClientLimits): void {
  server.on('clientError', onClientError);
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    const error: AppError = {
      code: 'method_not_allowed',
      message: 'CONNECT is not supported: Leeway is no forward proxy',
    };
    // Node handed the socket over and dropped its own error listener: without one a reset would crash.
    socket.on('error', () => socket.destroy());
    const raw = rawClientError(guessFormat(req, pathnameOf(req.url ?? '')), error);
    const state = socketStateOf(socket);
    if (state) closeWithRaw(state, raw);
    else endWithRaw(socket, raw);
  });
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    trackRequest(req, res, limits());
    const error: AppError = { code: 'invalid_input', status: 417, message: 'Only "Expect: 100-continue" is supported' };
    sendClientError(res, guessFormat(req, pathnameOf(req.url ?? '/')), error);
  });
}
