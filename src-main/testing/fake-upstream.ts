/**
 * A loopback HTTP server that speaks the Anthropic Messages or OpenAI Chat Completions wire format,
 * with scripted misbehaviour (errors, delays, hangs, drops, slow streams) so proxy tests can run
 * against realistic upstreams without a network.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { rejectPlan, type PlanContext } from './fake-upstream-errors';
import { createExchange, type Exchange } from './fake-upstream-exchange';
import { perform } from './fake-upstream-perform';
import { closeServer, flattenHeaders, parseJson, poll } from './fake-server-kit';
import { DEFAULT_MODELS } from './fake-upstream-models';
import type { Behaviour, FakeUpstream, FakeUpstreamOptions, RecordedRequest } from './fake-upstream-types';

export type { Behaviour, FakeUpstream, FakeUpstreamOptions, RecordedRequest } from './fake-upstream-types';

/** Starts a fake upstream on 127.0.0.1 and an OS-chosen port. */
export async function startFakeUpstream(options: FakeUpstreamOptions): Promise<FakeUpstream> {
  const name = options.name ?? options.format;
  const queue: Behaviour[] = [];
  let fallback: Behaviour = { kind: 'ok' };
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const socketStats = { opened: 0, closed: 0, open: () => sockets.size };
  const exchanges = new Set<Exchange>();
  let closing = false;
  let closed: Promise<void> | undefined;

  const contextFor = (seq: number): PlanContext => ({
    format: options.format,
    name,
    seq,
    models: options.models ?? DEFAULT_MODELS[options.format],
    requireAuth: options.requireAuth ?? true,
    apiKey: options.apiKey,
  });

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      const body = Buffer.concat(parts).toString('utf8');
      const record: RecordedRequest = {
        seq: requests.length + 1,
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: flattenHeaders(req),
        body,
        json: parseJson(body),
        aborted: false,
        response: null,
      };
      requests.push(record);
      const exchange = createExchange(res, record, () => closing);
      exchanges.add(exchange);
      res.on('close', () => exchanges.delete(exchange));
      const ctx = contextFor(record.seq);
      const pathname = new URL(record.path, 'http://fake').pathname;
      const refusal = rejectPlan(ctx, record, pathname);
      // Refusals do not consume scripted behaviours, so a test's queue lines up with real calls.
      const done = refusal
        ? exchange.send(refusal)
        : perform(exchange, ctx, record, pathname, options.choose?.(record) ?? queue.shift() ?? fallback);
      done.catch(() => res.destroy());
    });
  };

  const server = createServer(handle);
  server.on('connection', (socket: Socket) => {
    socketStats.opened += 1;
    sockets.add(socket);
    socket.on('close', () => {
      socketStats.closed += 1;
      sockets.delete(socket);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  const upstream: FakeUpstream = {
    name,
    format: options.format,
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    sockets: socketStats,
    enqueue: (...behaviours) => void queue.push(...behaviours),
    setDefault: (behaviour) => void (fallback = behaviour),
    waitFor: (predicate, timeoutMs = 2000) => poll(() => predicate(upstream), timeoutMs, `${name}: condition`),
    waitForRequests: (count, timeoutMs = 2000) =>
      poll(() => requests.length >= count, timeoutMs, `${name}: ${count} requests (have ${requests.length})`),
    close: () => {
      closing = true;
      closed ??= closeServer(server, sockets, exchanges);
      return closed;
    },
  };
  return upstream;
}

/** A loopback port with nothing listening, for "connection refused" tests. */
export async function reservePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
