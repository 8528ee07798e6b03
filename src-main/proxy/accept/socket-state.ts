import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** What Leeway knows about one client socket; one object per connection, reused by its requests. */
export interface SocketState {
  socket: Socket;
  /** The request whose head arrived and whose body may still be arriving; null between requests. */
  reading: IncomingMessage | null;
  readingRes: ServerResponse | null;
  /** The newest response not finished yet (its request may be read whole already). */
  answering: ServerResponse | null;
  /** Responses begun and not finished (more than one when requests are pipelined). */
  inFlight: number;
  /** Leeway gave its last answer on this socket and is only waiting for it to drain. */
  closing: boolean;
  /** A protocol-error answer waiting for the earlier pipelined responses to finish. */
  pendingRaw: string | null;
  deadline: NodeJS.Timeout | null;
  deadlineMs: number;
  /** The idle limit in force for this socket's current request. */
  idleMs: number;
  /** socket.bytesRead when the last request was read whole: more since means a request head has begun. */
  readMark: number;
}

const states = new WeakMap<Socket, SocketState>();

/** Attaches the state of a socket the limits were just installed on (client-sockets.ts). */
export function setSocketState(socket: Socket, state: SocketState): void {
  states.set(socket, state);
}

/** The state of a socket the limits were installed on. */
export function socketStateOf(socket: Socket): SocketState | undefined {
  return states.get(socket);
}
