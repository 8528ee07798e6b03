import { Socket } from 'node:net';
import { socketStateOf, type SocketState } from './socket-state';

/** How long, at most, a socket keeps reading after a last answer given before its request's body. */
const LINGER_MS = 10_000;
/** …and how much it reads and drops meanwhile, at most. */
const LINGER_MAX_BYTES = 128 * 1024 * 1024;
/** After a client's FIN, the first repeat of the probe; each later one waits twice as long, up to the cap. */
const PROBE_FIRST_MS = 100;
const PROBE_MAX_MS = 5_000;

/** Makes Node's close after a `connection: close` answer linger on this socket (rare paths only). */
export function lingerOnClose(socket: Socket): void {
  socket.destroySoon = lingerSoon;
}

/**
 * Issue 21 §4: Node ends a socket after a `connection: close` answer and destroys it as soon as the
 * answer is flushed. A client still uploading (a 40 MB body refused with 413) then has its next
 * bytes answered by the kernel with a reset, and most clients report that reset (EPIPE) instead of
 * the 413 they had not read yet, and retry. So, while the request's body is unread, the socket
 * sends its FIN after the answer and keeps reading and dropping what arrives until the client
 * closes, within LINGER_MS and LINGER_MAX_BYTES (the idle limit applies as before).
 */
function lingerSoon(this: Socket): void {
  const req = socketStateOf(this)?.reading;
  if (!req || req.complete || this.readableEnded) return Socket.prototype.destroySoon.call(this);
  if (this.writable) this.end();
  let dropped = 0;
  const timer = setTimeout(() => this.destroy(), LINGER_MS).unref();
  this.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_MAX_BYTES) this.destroy();
  });
  this.once('end', () => this.destroy());
  this.once('close', () => clearTimeout(timer));
}

/**
 * Issue 21 §8: a client's FIN is all Leeway sees whether the client half-closed after its request
 * (and waits for the answer, which it now gets: the server allows half-open sockets) or closed for
 * good (an abort, e.g. Esc in Claude Code). Half-closing clients do so right after their request;
 * a FIN while the answer is already flowing (a stream, a held request's keep-alive) is a client
 * leaving, and ends the socket at once as Node did. Before the answer began only a write tells the
 * two apart, and only the write after the kernel got the closed client's reset: so `102
 * Processing` (an interim response clients skip) is written now and again with backoff. For a
 * client that left, the second write fails, which ends the socket and cancels the request upstream.
 */
export function onClientEnd(this: Socket): void {
  const state = socketStateOf(this);
  const res = state?.answering;
  if (!state || !res || state.closing || res.writableEnded) return;
  if (res.headersSent) this.destroy();
  else probeClient(state, PROBE_FIRST_MS);
}

function probeClient(state: SocketState, nextMs: number): void {
  const res = state.answering;
  if (!res || state.closing || res.headersSent || res.writableEnded || !state.socket.writable) return;
  // An HTTP/1.0 client must not get a 1xx (RFC 9110 §15.2): it is answered unprobed.
  if (res.req.httpVersion === '1.0') return;
  res.writeProcessing();
  // Rare (a FIN while an answer is pending), so a timer of its own; it stops once the answer begins.
  setTimeout(probeClient, nextMs, state, Math.min(nextMs * 2, PROBE_MAX_MS)).unref();
}
