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
import { anthropicStreamFrames, splitText } from '../sse-frames';

export type ChaosPhase = 'storm' | 'healed';

/**
 * What the upstream does with one request: `ok` answers at once, `slow` after a random delay
 * (below the proxy's timeouts), `reset_before` destroys the socket without a byte, `reset_mid`
 * sends 200 headers and part of the body then destroys it, `hang` never answers (the proxy's
 * timeout must cut it), `unavailable` answers 503 with Anthropic's error envelope, `stall_error`
 * sends 503 headers and half of that envelope, then stalls (hangs after the headers);
 * `ok_error_body` answers 200 whose body is a rate-limit error (a stream: whose first event is),
 * `empty_ok` answers 200 with no body at all (issue 21 §1: neither may reach a client as a success).
 */
export const CHAOS_ACTIONS = [
  'ok',
  'slow',
  'reset_before',
  'reset_mid',
  'hang',
  'unavailable',
  'stall_error',
  'ok_error_body',
  'empty_ok',
] as const;
export type ChaosAction = (typeof CHAOS_ACTIONS)[number];
export type ChaosWeights = Readonly<Record<ChaosAction, number>>;

/** Mostly failures, every kind represented. */
export const STORM_WEIGHTS: ChaosWeights = {
  ok: 10,
  slow: 10,
  reset_before: 20,
  reset_mid: 10,
  hang: 10,
  unavailable: 30,
  stall_error: 5,
  ok_error_body: 5,
  empty_ok: 5,
};
/** Always a normal answer, some of them a little late. */
export const HEALED_WEIGHTS: ChaosWeights = {
  ok: 80,
  slow: 20,
  reset_before: 0,
  reset_mid: 0,
  hang: 0,
  unavailable: 0,
  stall_error: 0,
  ok_error_body: 0,
  empty_ok: 0,
};

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

/** mulberry32: a tiny, fast, seedable PRNG with a 2^32 period; plenty for drawing chaos. */
export function createPrng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Draws one action in proportion to its weight; `roll` is in [0, 1). */
export function pickAction(weights: ChaosWeights, roll: number): ChaosAction {
  const total = CHAOS_ACTIONS.reduce((sum, action) => sum + Math.max(0, weights[action]), 0);
  if (total <= 0) return 'ok';
  let point = roll * total;
  for (const action of CHAOS_ACTIONS) {
    point -= Math.max(0, weights[action]);
    if (point < 0) return action;
  }
  return 'ok';
}

const emptyTally = (): Record<ChaosAction, number> => ({
  ok: 0,
  slow: 0,
  reset_before: 0,
  reset_mid: 0,
  hang: 0,
  unavailable: 0,
  stall_error: 0,
  ok_error_body: 0,
  empty_ok: 0,
});

interface Parsed {
  model: string;
  stream: boolean;
}

function parseRequest(body: string): Parsed {
  try {
    const json = JSON.parse(body) as { model?: unknown; stream?: unknown };
    return { model: typeof json.model === 'string' ? json.model : 'claude-sonnet-4-6', stream: json.stream === true };
  } catch {
    return { model: 'claude-sonnet-4-6', stream: false };
  }
}

/** The body of a normal answer: the SSE frames of a stream, or one Message JSON split in two halves. */
function answerChunks(
  name: string,
  seq: number,
  parsed: Parsed,
): { headers: Record<string, string>; chunks: string[] } {
  const id = `msg_${name}_${seq}`;
  const text = `Hello from ${name}.`;
  const identity = { 'request-id': `req_${name}_${seq}`, 'x-fake-upstream': name };
  if (parsed.stream) {
    const frames = anthropicStreamFrames({
      id,
      model: parsed.model,
      deltas: splitText(text, 3),
      inputTokens: 8,
      outputTokens: 4,
    });
    return {
      headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', ...identity },
      chunks: frames,
    };
  }
  const json = JSON.stringify({
    id,
    type: 'message',
    role: 'assistant',
    model: parsed.model,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 8, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 4 },
  });
  const middle = Math.floor(json.length / 2);
  return {
    headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(json)), ...identity },
    chunks: [json.slice(0, middle), json.slice(middle)],
  };
}

const UNAVAILABLE_BODY = JSON.stringify({
  type: 'error',
  error: { type: 'api_error', message: 'Service temporarily unavailable' },
});

const RATE_LIMIT_ERROR = JSON.stringify({
  type: 'error',
  error: { type: 'rate_limit_error', message: 'Number of requests has exceeded your rate limit' },
});

/** A 200 that is no answer: the error as the whole JSON body, or as a stream's first event. */
function errorBodyOk(stream: boolean): { headers: Record<string, string>; body: string } {
  const body = stream ? `event: error\ndata: ${RATE_LIMIT_ERROR}\n\n` : RATE_LIMIT_ERROR;
  const type = stream ? 'text/event-stream' : 'application/json';
  return { headers: { 'content-type': type, 'content-length': String(Buffer.byteLength(body)) }, body };
}

function unavailableHeaders(name: string, seq: number): Record<string, string> {
  return {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(UNAVAILABLE_BODY)),
    'request-id': `req_${name}_${seq}`,
    'x-fake-upstream': name,
  };
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
