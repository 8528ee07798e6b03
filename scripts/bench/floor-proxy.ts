/**
 * The FLOOR: the least a proxy hop can cost in Node — node:http in, an undici keep-alive Pool out,
 * hop-by-hop headers dropped, bodies relayed as they come. No routing, no auth, no logging.
 *
 * It is plain JavaScript run with `node --input-type=module -e`, not through tsx, so its start time
 * and RSS are not inflated by a TypeScript loader the built Leeway does not carry either.
 * Usage inside the child: argv = [node, port, upstreamOrigin]; prints `READY http://127.0.0.1:PORT`.
 */
import { spawnNode, type Child } from './children';

export const FLOOR_SOURCE = String.raw`
import { createServer } from 'node:http';
import { Pool } from 'undici';

const [port, upstream] = process.argv.slice(-2);
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection', 'upgrade', 'te', 'trailer', 'host']);
// Same pool settings as Leeway's upstream pools, so both keep the same number of warm sockets.
const pool = new Pool(upstream, { connections: 128, keepAliveTimeout: 30000, keepAliveMaxTimeout: 120000 });

function copyHeaders(from) {
  const to = {};
  for (const name in from) {
    const value = from[name];
    if (value !== undefined && !HOP.has(name)) to[name] = value;
  }
  return to;
}

const server = createServer({ keepAliveTimeout: 65000, requestTimeout: 0, headersTimeout: 60000 }, (req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const controller = new AbortController();
    res.on('close', () => { if (!res.writableFinished) controller.abort(); });
    pool.request({
      method: req.method,
      path: req.url,
      headers: copyHeaders(req.headers),
      body: chunks.length === 0 ? null : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks),
      signal: controller.signal,
    }).then(({ statusCode, headers, body }) => {
      res.writeHead(statusCode, copyHeaders(headers));
      body.on('error', () => res.destroy());
      body.pipe(res);
    }, () => {
      if (res.headersSent) return res.destroy();
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('floor: upstream failed');
    });
  });
});

server.listen(Number(port), '127.0.0.1', () => console.log('READY http://127.0.0.1:' + port));
const stop = () => server.close(() => pool.destroy().finally(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
`;

/** Starts the floor proxy on `port` in front of `upstream` (an origin). */
export function startFloor(options: {
  port: number;
  upstream: string;
  cwd: string;
  nodeFlags?: string[];
  /** CPU list for `taskset -c`, to pin the floor like Leeway. */
  pin?: string | null;
}): Promise<Child> {
  return spawnNode({
    name: 'floor',
    cwd: options.cwd,
    ...(options.pin ? { command: 'taskset' } : {}),
    args: [
      ...(options.pin ? ['-c', options.pin, process.execPath] : []),
      ...(options.nodeFlags ?? []),
      '--input-type=module',
      '-e',
      FLOOR_SOURCE,
      '--',
      String(options.port),
      options.upstream,
    ],
    ready: /^READY (\S+)/,
  });
}
