import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Settings } from '../../../src-shared/domain/settings';
import type { AppError } from '../../../src-shared/contract/errors';
import { rawClientError, sendClientError } from '../relay/client-errors';
import { guessFormat, pathnameOf } from '../relay/client-format';
import { lingerOnClose, onClientEnd } from './client-close';
import { setSocketState, socketStateOf, type SocketState } from './socket-state';

/** The settings that bound a client socket; read on every connection and request, so changes apply at once. */
export type ClientLimits = Pick<Settings, 'clientIdleTimeoutMs' | 'clientRequestTimeoutMs' | 'maxClientSockets'>;

/** Node's own header deadline stays this or the request deadline, whichever is shorter. */
const HEADERS_TIMEOUT_MAX_MS = 60_000;
/** After Leeway answered and asked to close, how long the client has to read that answer. */
export const CLOSE_GRACE_MS = 2_000;
/** A refused request's unread body is drained (keeping the connection for what follows) at most this long. */
const REFUSED_DRAIN_MS = 10_000;
/** At most one "socket cap reached" line per this, however hard the cap is hit. */
const CAP_LOG_EVERY_MS = 60_000;

/** Writes a last raw answer and ends the socket, giving the client a moment to read it before it is cut. */
export function endWithRaw(socket: Socket, raw: string): void {
  if (socket.writable) socket.end(raw);
  // Rare (protocol errors only), so a timer of its own; Node's timeout events may be gone (CONNECT).
  setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref();
}

/** Ends a socket with a last raw answer, after the responses to earlier pipelined requests. */
export function closeWithRaw(state: SocketState, raw: string): void {
  state.closing = true;
  if (state.inFlight > 0) state.pendingRaw = raw;
  else endWithRaw(state.socket, raw);
}

function deadlineMessage(ms: number): string {
  return `The request was not received whole within ${ms} ms`;
}

/** 408 for the request being read, in its client's format; a response already under way is cut instead. */
function expire(state: SocketState, message: string): void {
  const req = state.reading;
  const res = state.readingRes;
  if (res?.writableEnded) {
    // Already answered (and told to close); the answer may wait behind a pipelined one.
    state.closing = true;
    if (state.inFlight === 0) state.socket.destroy();
    return;
  }
  if (state.closing || !req || !res || res.headersSent) {
    state.socket.destroy();
    return;
  }
  state.closing = true;
  // The rest of the body is not worth waiting for: the connection ends with this answer.
  res.setHeader('connection', 'close');
  lingerOnClose(state.socket);
  sendClientError(res, guessFormat(req, pathnameOf(req.url ?? '/')), { code: 'request_timeout', message });
  state.socket.setTimeout(CLOSE_GRACE_MS);
}

/** The request on a socket is read whole (its 'end'): from here on only the response runs. */
function doneReading(state: SocketState): void {
  state.readMark = state.socket.bytesRead;
  state.reading = null;
  state.readingRes = null;
  // A long answer (an upstream thinking for minutes) is not the client's idleness.
  if (state.inFlight > 0 && !state.closing) state.socket.setTimeout(0);
}

function onRequestEnd(this: IncomingMessage): void {
  const state = socketStateOf(this.socket);
  // With pipelining the next request may already be the one being read.
  if (state?.reading === this) doneReading(state);
}

function onResponseFinish(this: ServerResponse): void {
  const state = socketStateOf(this.req.socket);
  if (!state) return;
  state.inFlight -= 1;
  if (state.answering === this) state.answering = null;
  if (state.reading?.complete) doneReading(state);
  // Answered early while the body still comes: Node just set its keep-alive timeout, the idle limit bounds the rest.
  else if (state.reading && !state.closing) state.socket.setTimeout(state.idleMs);
  if (state.inFlight === 0 && state.pendingRaw !== null) {
    endWithRaw(state.socket, state.pendingRaw);
    state.pendingRaw = null;
  }
}

/** Marks an answer given before any request head was parsed, so before an endpoint was known. */
export const HTTP_PHASE = { phase: 'http' } as const;

function headStalled(limits: ClientLimits): AppError {
  return {
    code: 'request_timeout',
    message: `The request headers stopped arriving for ${limits.clientIdleTimeoutMs} ms`,
    details: HTTP_PHASE,
  };
}

function createState(socket: Socket): SocketState {
  const state: SocketState = {
    socket,
    reading: null,
    readingRes: null,
    answering: null,
    inFlight: 0,
    closing: false,
    pendingRaw: null,
    deadline: null,
    deadlineMs: 0,
    idleMs: 0,
    readMark: 0,
  };
  socket.once('close', () => {
    if (state.deadline) clearTimeout(state.deadline);
    // Node only aborts requests still awaiting their response; one already answered would wait
    // forever for the rest of its body, and so would whoever reads it.
    if (state.reading && !state.reading.complete) state.reading.destroy();
  });
  return state;
}

function armDeadline(state: SocketState, limits: ClientLimits): void {
  // One timer per socket, re-armed per request; a fired timer for a request already read is a no-op.
  if (state.deadline && state.deadlineMs === limits.clientRequestTimeoutMs) {
    state.deadline.refresh();
    return;
  }
  if (state.deadline) clearTimeout(state.deadline);
  state.deadlineMs = limits.clientRequestTimeoutMs;
  state.deadline = setTimeout(() => {
    if (state.reading && !state.reading.complete) expire(state, deadlineMessage(limits.clientRequestTimeoutMs));
  }, limits.clientRequestTimeoutMs).unref();
}

/** Starts the idle limit and deadline for a request whose head just arrived. */
export function trackRequest(req: IncomingMessage, res: ServerResponse, limits: ClientLimits): void {
  const state = socketStateOf(req.socket);
  if (!state) return;
  state.inFlight += 1;
  state.reading = req;
  state.readingRes = res;
  state.answering = res;
  res.on('finish', onResponseFinish);
  req.on('end', onRequestEnd);
  state.idleMs = limits.clientIdleTimeoutMs;
  req.socket.setTimeout(limits.clientIdleTimeoutMs);
  armDeadline(state, limits);
}

/**
 * Bounds the rest of a refused request's body: it is drained so the connection (and any request
 * pipelined after it) survives, but a body that trickles on cannot hold the socket past the bound.
 * When the answer closes the connection, the socket lingers (client-close.ts) instead of being
 * destroyed under a body still arriving.
 */
export function boundRefusedBody(req: IncomingMessage): void {
  const state = socketStateOf(req.socket);
  if (!state || state.reading !== req || req.complete) return;
  lingerOnClose(state.socket);
  // Rare (a refusal that beat its own body), so a timer of its own; the socket's deadline timer stays as it is.
  setTimeout(() => {
    if (state.reading === req && !req.complete) expire(state, deadlineMessage(REFUSED_DRAIN_MS));
  }, REFUSED_DRAIN_MS).unref();
}

/**
 * Bounds every client socket of `server`: a cap on open sockets, an idle limit while a request is
 * read (and before the first one), and a deadline for reading a whole request. Once a request is
 * read, its response may take as long as it needs. Install before the request handler.
 */
export function installClientLimits(server: Server, limits: () => ClientLimits, log: (line: string) => void): void {
  // Issue 21 §8: Node's default drops the requests of a client that half-closes and ends the socket
  // unanswered. This switch (long-standing, though undocumented) answers them and closes after the
  // last answer; onClientEnd tells a client that left apart.
  Object.assign(server, { httpAllowHalfOpen: true });
  let open = 0;
  let loggedCapAt = -Infinity;
  server.on('connection', (socket: Socket) => {
    const current = limits();
    open += 1;
    socket.once('close', () => (open -= 1));
    if (open > current.maxClientSockets) {
      const now = Date.now();
      if (now - loggedCapAt > CAP_LOG_EVERY_MS) {
        loggedCapAt = now;
        log(
          `Leeway: ${open - 1} client sockets are open (maxClientSockets ${current.maxClientSockets}); closing new ones`,
        );
      }
      socket.destroy();
      return;
    }
    server.headersTimeout = Math.min(HEADERS_TIMEOUT_MAX_MS, current.clientRequestTimeoutMs);
    setSocketState(socket, createState(socket));
    socket.on('end', onClientEnd);
    socket.setTimeout(current.clientIdleTimeoutMs);
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => trackRequest(req, res, limits()));
  // With a listener here Node no longer destroys timed-out sockets itself; this decides.
  server.on('timeout', (socket: Socket) => {
    const state = socketStateOf(socket);
    if (!state) return void socket.destroy();
    if (state.reading && !state.reading.complete && !state.closing)
      return expire(state, `No request bytes arrived for ${state.idleMs} ms; the request was abandoned`);
    // A response is on its way (perhaps an upstream thinking for minutes): its own limits apply.
    if (state.inFlight > 0) return socket.setTimeout(0);
    if (state.closing) return void socket.destroy();
    // Part of a request head arrived and then nothing: there is no response object yet, so answer raw.
    if (socket.bytesRead > state.readMark) return closeWithRaw(state, rawClientError('openai', headStalled(limits())));
    socket.destroy();
  });
}
