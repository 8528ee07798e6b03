/**
 * Raw HTTP/1.x over node:net, for requests no well-behaved client would send: partial bodies, bad
 * framing, duplicate headers, pipelining. Answers are parsed by hand so nothing is hidden.
 */
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  /** Lower-cased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: string;
}

export interface RawExchange {
  responses: RawResponse[];
  /** Bytes that did not parse as a complete HTTP response (should be empty). */
  rest: string;
  /** The server closed (or reset) the socket before the wait ended. */
  closedByServer: boolean;
  /** Milliseconds from the first write to the server's close; null when it did not close. */
  closedAfterMs: number | null;
}

export interface RawSocket {
  socket: Socket;
  write(bytes: string | Buffer): void;
  /**
   * Resolves once the server closed the socket, `settled` holds for the responses so far (a
   * keep-alive answer is in), or `waitMs` passed; then the client closes it.
   */
  finish(waitMs: number, settled?: (responses: RawResponse[]) => boolean): Promise<RawExchange>;
}

/** Opens a socket to 127.0.0.1:port and records everything the server sends back. */
export function openRaw(port: number, options: { bodiless?: boolean[] } = {}): Promise<RawSocket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const startedAt = Date.now();
    let closedAt: number | null = null;
    const closed = new Promise<void>((done) => {
      socket.on('close', () => {
        closedAt ??= Date.now();
        done();
      });
    });
    let onData: (() => void) | null = null;
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      onData?.();
    });
    socket.on('end', () => {
      closedAt ??= Date.now();
    });
    socket.on('error', () => {
      closedAt ??= Date.now();
    });
    socket.once('connect', () =>
      resolve({
        socket,
        write: (bytes) => {
          if (!socket.destroyed) socket.write(bytes);
        },
        async finish(waitMs, settled) {
          let timer: NodeJS.Timeout | undefined;
          const parse = () => parseResponses(Buffer.concat(chunks).toString('latin1'), options.bodiless);
          const early = new Promise<void>((done) => {
            if (!settled) return;
            onData = () => {
              if (settled(parse().responses)) done();
            };
            onData();
          });
          await Promise.race([closed, early, new Promise<void>((done) => (timer = setTimeout(done, waitMs)))]);
          clearTimeout(timer);
          onData = null;
          const closedByServer = closedAt !== null;
          socket.destroy();
          const parsed = parse();
          return { ...parsed, closedByServer, closedAfterMs: closedAt === null ? null : closedAt - startedAt };
        },
      }),
    );
    socket.once('error', reject);
  });
}

/** Writes `bytes`, then waits up to `waitMs` for the server to answer and close. */
export async function exchangeRaw(port: number, bytes: string | Buffer, waitMs: number): Promise<RawExchange> {
  const raw = await openRaw(port, {});
  raw.write(bytes);
  return raw.finish(waitMs);
}

function decodeChunked(text: string): { body: string; used: number } | null {
  let at = 0;
  let body = '';
  for (;;) {
    const eol = text.indexOf('\r\n', at);
    if (eol === -1) return null;
    const size = parseInt(text.slice(at, eol), 16);
    if (!Number.isFinite(size)) return null;
    at = eol + 2;
    if (size === 0) {
      const end = text.indexOf('\r\n', at);
      return end === -1 ? null : { body, used: end + 2 };
    }
    if (text.length < at + size + 2) return null;
    body += text.slice(at, at + size);
    at += size + 2;
  }
}

/**
 * Splits a byte stream into complete HTTP responses (Content-Length or chunked framing);
 * `bodiless[i]` marks the answer to a HEAD, which announces a length but sends no body.
 */
export function parseResponses(all: string, bodiless: boolean[] = []): { responses: RawResponse[]; rest: string } {
  const responses: RawResponse[] = [];
  let text = all;
  for (;;) {
    const headEnd = text.indexOf('\r\n\r\n');
    if (headEnd === -1) break;
    const lines = text.slice(0, headEnd).split('\r\n');
    const match = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
    if (!match) break;
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    const status = Number(match[1]);
    const after = text.slice(headEnd + 4);
    if (status >= 100 && status < 200) {
      text = after;
      continue;
    }
    // A HEAD is answered without a body, unless Leeway answered raw before the head was even parsed.
    if (bodiless[responses.length] === true && (after === '' || after.startsWith('HTTP/'))) {
      responses.push({ status, headers, body: '' });
      text = after;
      continue;
    }
    if (headers['transfer-encoding']?.includes('chunked')) {
      const decoded = decodeChunked(after);
      if (!decoded) break;
      responses.push({ status, headers, body: Buffer.from(decoded.body, 'latin1').toString('utf8') });
      text = after.slice(decoded.used);
      continue;
    }
    const length = Number(headers['content-length'] ?? 0);
    if (after.length < length) break;
    responses.push({ status, headers, body: Buffer.from(after.slice(0, length), 'latin1').toString('utf8') });
    text = after.slice(length);
  }
  return { responses, rest: text };
}

/** Request head with CRLFs, e.g. head('POST /v1/messages HTTP/1.1', ['host: localhost']). */
export function head(requestLine: string, headers: string[]): string {
  return `${requestLine}\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n`;
}

/** A port from a `http://127.0.0.1:PORT` origin. */
export function portOf(url: string): number {
  return Number(new URL(url).port);
}
