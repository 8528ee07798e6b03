/**
 * A small gateway for the suite's own tests: it forwards to the suite's upstream with one of two
 * keys, buffering each answer, and breaks on purpose whatever `mangles` names. With none it is a
 * correct pass-through (sessions stay on one key, other requests alternate), so the suite can be
 * shown to pass a gateway that is not Leeway and to fail each check when its item is broken.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { mangleBody, type Mangle } from './mangles';

export interface ManglingGateway {
  url: string;
  close(): Promise<void>;
}

const KEYS = ['sk-gateway-key-one-0001', 'sk-gateway-key-two-0002'] as const;
const SESSION_HEADERS = ['x-claude-code-session-id', 'session-id'] as const;

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
  res.end(body);
}

export async function startManglingGateway(
  upstreamUrl: string,
  mangles: ReadonlySet<Mangle>,
): Promise<ManglingGateway> {
  let turn = 0;
  const perSession = new Map<string, number>();

  /** Sessions keep one key (or, mangled, alternate within the session); other requests alternate. */
  const keyFor = (req: IncomingMessage): string => {
    const header = SESSION_HEADERS.map((h) => req.headers[h]).find((v) => typeof v === 'string');
    if (typeof header !== 'string') return KEYS[turn++ % 2] ?? KEYS[0];
    const seen = perSession.get(header) ?? perSession.size;
    perSession.set(header, mangles.has('sessions') ? seen + 1 : seen);
    return KEYS[seen % 2] ?? KEYS[0];
  };

  const forward = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const body = await readBody(req);
    const key = keyFor(req);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-api-key': key,
      authorization: `Bearer ${key}`,
    };
    for (const name of ['anthropic-version', 'anthropic-beta', 'accept'] as const) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const path = mangles.has('beta') ? url.pathname : url.pathname + url.search;
    const method = req.method ?? 'GET';
    const answer = await fetch(upstreamUrl + path, { method, headers, ...(method === 'GET' ? {} : { body }) });
    const text = await answer.text();
    const type = answer.headers.get('content-type') ?? 'application/json';
    if (answer.status >= 400 && mangles.has('errors'))
      return send(res, 502, { 'content-type': 'application/json' }, '{"error":{"message":"Bad gateway"}}');
    send(res, answer.status, { 'content-type': type }, answer.status < 400 ? mangleBody(text, mangles) : text);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://gateway');
    const route = `${req.method} ${url.pathname}`;
    if (route === 'HEAD /') {
      if (mangles.has('head')) return void req.socket.destroy();
      return send(res, 200, {}, '');
    }
    if (route === 'GET /v1/models/') return send(res, 404, { 'content-type': 'application/json' }, '{}');
    if (route === 'GET /v1/models' && mangles.has('models-redirect'))
      return send(res, 302, { location: '/v1/models/' }, '');
    if (route === 'GET /v1/models' && mangles.has('models-slow')) await new Promise((r) => setTimeout(r, 3500));
    if (route === 'POST /v1/messages/count_tokens' && mangles.has('count-tokens'))
      return send(
        res,
        404,
        { 'content-type': 'application/json' },
        '{"type":"error","error":{"type":"not_found_error","message":"Not Found"}}',
      );
    return forward(req, res, url);
  };

  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
