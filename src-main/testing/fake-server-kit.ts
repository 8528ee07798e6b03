import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

/** Pieces every fake server in this folder shares. */

/**
 * Closes the server and destroys every socket, resolving only once each has emitted 'close', so
 * socket counters are final and no handle leaks; then cancels exchanges still waiting.
 */
export function closeServer(
  server: Server,
  sockets: ReadonlySet<Socket>,
  exchanges: Iterable<{ cancel(): void }>,
): Promise<void> {
  return Promise.all([
    new Promise<void>((resolve) => server.close(() => resolve())),
    ...[...sockets].map((socket) => new Promise<void>((resolve) => socket.once('close', () => resolve()).destroy())),
  ]).then(() => {
    for (const exchange of exchanges) exchange.cancel();
  });
}

export function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

export function parseJson(body: string): unknown {
  if (body === '') return null;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return null;
  }
}

export function poll(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const tick = (): void => {
      if (check()) return resolve();
      if (Date.now() >= deadline) return reject(new Error(`Timed out after ${timeoutMs}ms waiting for ${what}`));
      setTimeout(tick, 5);
    };
    tick();
  });
}
