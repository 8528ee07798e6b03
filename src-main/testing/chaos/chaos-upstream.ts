/**
 * A chaos upstream for TEST-1: a loopback node:http server speaking the Anthropic Messages wire
 * format that, per request and with seeded pseudo-randomness, answers normally, answers late,
 * resets the connection before or in the middle of its answer, hangs (before or after 503 headers),
 * or says 503. A switchable phase turns the storm (mostly failures) into a healed upstream (always a
 * normal answer). The storm opens with each of its actions once, so a short storm still shows all.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { stormPrelude, type PreludeKind } from './chaos-prelude';
import type { AddressInfo, Socket } from 'node:net';
import {
  CHAOS_ACTIONS,
  createPrng,
  emptyTally,
  HEALED_WEIGHTS,
  pickAction,
  STORM_WEIGHTS,
  type ChaosAction,
  type ChaosWeights,
} from './chaos-draw';
import {
  answerChunks,
  errorBodyOk,
  parseRequest,
  UNAVAILABLE_BODY,
  unavailableHeaders,
  type Parsed,
} from './chaos-answers';

export type ChaosPhase = 'storm' | 'healed';

export interface ChaosUpstreamOptions {
  name: string;
  seed: number;
  /** Upper bound of the delay of a `slow` answer (default 250 ms; keep it under the proxy's timeouts). */
  maxLatencyMs?: number;
  weights?: Partial<Record<ChaosPhase, ChaosWeights>>;
  /**
   * The storm's opening draws: every action once in seeded order (`shuffled`, the default), or
   * `failures-first`: the failures every breaker counts (reset, 503, cut mid-answer) first, then the
   * successes, then the other failures, each group in seeded order, so the breaker sees a run of
   * failures however few draws get past the cooldowns.
   */
  prelude?: PreludeKind;
}

export interface ChaosUpstream {
  readonly name: string;
  readonly seed: number;
  /** Origin, e.g. `http://127.0.0.1:PORT`. */
  readonly url: string;
  readonly port: number;
  readonly phase: ChaosPhase;
  setPhase(phase: ChaosPhase): void;
  /** How often each action was drawn, per phase. */
  readonly actions: Readonly<Record<ChaosPhase, Record<ChaosAction, number>>>;
  /** Requests received (any path). */
  readonly requests: number;
  readonly sockets: { opened: number; closed: number; open(): number };
  /** Resolves once the server and every socket it accepted are closed and no timer is left. */
  close(): Promise<void>;
}

/** Starts a chaos upstream on 127.0.0.1 and an OS-chosen port, in the `storm` phase. */
export async function startChaosUpstream(options: ChaosUpstreamOptions): Promise<ChaosUpstream> {
  const { name, seed } = options;
  const random = createPrng(seed);
  const maxLatencyMs = options.maxLatencyMs ?? 250;
  const weights: Record<ChaosPhase, ChaosWeights> = {
    storm: options.weights?.storm ?? STORM_WEIGHTS,
    healed: options.weights?.healed ?? HEALED_WEIGHTS,
  };
  const actions: Record<ChaosPhase, Record<ChaosAction, number>> = { storm: emptyTally(), healed: emptyTally() };
  // The storm opens with every one of its actions once, in seeded order, so even a short storm
  // (the breaker soon shields the upstream) shows each kind of failure; random draws follow.
  const prelude = stormPrelude(options.prelude ?? 'shuffled', CHAOS_ACTIONS, weights.storm, random);
  let phase: ChaosPhase = 'storm';
  let requests = 0;
  let closing = false;
  const sockets = new Set<Socket>();
  const socketStats = { opened: 0, closed: 0, open: () => sockets.size };
  const timers = new Set<NodeJS.Timeout>();

  /** Runs `fn` after `ms` unless the exchange ends first; every pending timer is cleared on close. */
  const later = (res: ServerResponse, ms: number, fn: () => void): void => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!res.destroyed && !closing) fn();
    }, ms);
    timers.add(timer);
    res.once('close', () => {
      clearTimeout(timer);
      timers.delete(timer);
    });
  };

  /** Writes chunks one by one, each after the previous reached the socket; stops if the socket went. */
  const writeAll = (res: ServerResponse, chunks: string[], done: () => void): void => {
    const next = (i: number): void => {
      if (res.destroyed) return;
      if (i >= chunks.length) return done();
      res.write(chunks[i] ?? '', (error) => {
        if (!error) next(i + 1);
      });
    };
    next(0);
  };

  const answer = (res: ServerResponse, seq: number, parsed: Parsed): void => {
    const { headers, chunks } = answerChunks(name, seq, parsed);
    res.writeHead(200, headers);
    writeAll(res, chunks, () => res.end());
  };

  const act = (req: IncomingMessage, res: ServerResponse, seq: number, parsed: Parsed): void => {
    const drawn = (phase === 'storm' ? prelude.shift() : undefined) ?? pickAction(weights[phase], random());
    actions[phase][drawn] += 1;
    switch (drawn) {
      case 'ok':
        return answer(res, seq, parsed);
      case 'slow':
        return later(res, Math.floor(random() * maxLatencyMs), () => answer(res, seq, parsed));
      case 'reset_before':
        req.socket.destroy();
        return;
      case 'reset_mid': {
        const { headers, chunks } = answerChunks(name, seq, parsed);
        // Streams lose everything after the first one to three frames; JSON loses its second half.
        const keep = parsed.stream ? 1 + Math.floor(random() * 3) : 1;
        res.writeHead(200, headers);
        res.flushHeaders();
        writeAll(res, chunks.slice(0, keep), () => res.socket?.destroy());
        return;
      }
      case 'hang':
        // Nothing is sent; the exchange ends when the proxy gives up or the upstream closes.
        return;
      case 'unavailable':
        res.writeHead(503, unavailableHeaders(name, seq));
        res.end(UNAVAILABLE_BODY);
        return;
      case 'stall_error':
        res.writeHead(503, unavailableHeaders(name, seq));
        res.write(UNAVAILABLE_BODY.slice(0, Math.floor(UNAVAILABLE_BODY.length / 2)));
        return;
      case 'ok_error_body': {
        const { headers, body } = errorBodyOk(parsed.stream);
        res.writeHead(200, { ...headers, 'request-id': `req_${name}_${seq}`, 'x-fake-upstream': name });
        res.end(body);
        return;
      }
      case 'empty_ok':
        res.writeHead(200, {
          'content-type': parsed.stream ? 'text/event-stream' : 'application/json',
          'content-length': '0',
          'x-fake-upstream': name,
        });
        res.end();
        return;
    }
  };

  // A long keep-alive: idle sockets close only when the client (Leeway) closes them, so a test can
  // tell whether the proxy let go of its upstream sockets.
  const server = createServer({ keepAliveTimeout: 120_000 }, (req, res) => {
    requests += 1;
    const seq = requests;
    // A client that leaves mid-request is expected under chaos; never let it become an 'error' crash.
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      if (closing) return void req.socket.destroy();
      const pathname = new URL(req.url ?? '/', 'http://chaos').pathname;
      if (req.method !== 'POST' || pathname !== '/v1/messages') {
        const body = JSON.stringify({
          type: 'error',
          error: { type: 'not_found_error', message: `No route ${pathname}` },
        });
        res.writeHead(404, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
        res.end(body);
        return;
      }
      act(req, res, seq, parseRequest(Buffer.concat(parts).toString('utf8')));
    });
  });
  server.on('connection', (socket: Socket) => {
    socketStats.opened += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
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
  let closed: Promise<void> | undefined;

  return {
    name,
    seed,
    url: `http://127.0.0.1:${port}`,
    port,
    get phase() {
      return phase;
    },
    setPhase(next) {
      phase = next;
    },
    actions,
    get requests() {
      return requests;
    },
    sockets: socketStats,
    close() {
      closing = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      closed ??= Promise.all([
        new Promise<void>((resolve) => server.close(() => resolve())),
        ...[...sockets].map(
          (socket) => new Promise<void>((resolve) => socket.once('close', () => resolve()).destroy()),
        ),
      ]).then(() => undefined);
      return closed;
    },
  };
}
