/**
 * The load generator: closed-loop workers on an undici keep-alive Pool, one request in flight per
 * worker, timing each request from send to the last body byte (and to the first body byte for streams).
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { claudeCodeBody } from './claude-body';
import { MODEL, STREAM_DELTAS } from './shared';

const DELTA_EVENT = 'event: content_block_delta';
const STOP_EVENT = 'event: message_stop';

export type Kind = 'small' | 'stream' | 'cc' | 'cc-stream';

export interface Target {
  /** direct, floor, leeway (default config) or engines (Leeway with every engine on). */
  name: 'direct' | 'floor' | 'leeway' | 'engines';
  origin: string;
  /** x-api-key to send: the upstream's key, or Leeway's local key. */
  key: string;
  pool: Pool;
  /** The request bodies for this target's model, serialised once. */
  bodies: Record<Kind, Buffer>;
  /** When set, every virtual client (worker) sends its own `x-leeway-session`. */
  sessions: boolean;
}

export interface TargetOptions {
  /** The model the bodies name (a combo name when no route can map the real one). */
  model?: string;
  sessions?: boolean;
}

export function createTarget(
  name: Target['name'],
  origin: string,
  key: string,
  connections: number,
  options: TargetOptions = {},
): Target {
  const pool = new Pool(origin, {
    connections,
    pipelining: 1,
    keepAliveTimeout: 60_000,
    keepAliveMaxTimeout: 120_000,
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  });
  const model = options.model ?? MODEL;
  const hello = [{ role: 'user', content: 'Say hello.' }];
  const bodies: Record<Kind, Buffer> = {
    small: Buffer.from(JSON.stringify({ model, max_tokens: 64, messages: hello })),
    stream: Buffer.from(JSON.stringify({ model, max_tokens: 256, stream: true, messages: hello })),
    cc: Buffer.from(JSON.stringify(claudeCodeBody(model, false))),
    'cc-stream': Buffer.from(JSON.stringify(claudeCodeBody(model, true))),
  };
  return { name, origin, key, pool, bodies, sessions: options.sessions ?? false };
}

/** Built once per worker, not per request: the load generator's own cost stays out of the numbers. */
function headersFor(target: Target, worker = 0, stream = false): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'anthropic-version': '2023-06-01',
    'x-api-key': target.key,
  };
  if (stream) headers.accept = 'text/event-stream';
  if (target.sessions) headers['x-leeway-session'] = `bench-${target.name}-client-${worker}`;
  return headers;
}

export interface BatchResult {
  /** Per request, milliseconds from send to the end of the body. */
  totalMs: number[];
  /** Per request, milliseconds from send to the first body chunk (streams only). */
  ttfbMs: number[];
  wallMs: number;
  errors: number;
  firstError: string | null;
}

/** One non-streaming POST /v1/messages; throws on anything but a complete 200. */
async function plainRequest(
  target: Target,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ total: number; ttfb: number }> {
  const t0 = performance.now();
  const res = await target.pool.request({ method: 'POST', path: '/v1/messages', headers, body });
  const text = await res.body.text();
  const total = performance.now() - t0;
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
  if (!text.includes('"end_turn"')) throw new Error(`unexpected body: ${text.slice(0, 200)}`);
  return { total, ttfb: total };
}

/** One streamed POST /v1/messages; TTFB is the first body chunk (the first SSE event). */
async function streamRequest(
  target: Target,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ total: number; ttfb: number }> {
  const t0 = performance.now();
  const res = await target.pool.request({ method: 'POST', path: '/v1/messages', headers, body });
  let ttfb = -1;
  let tail = '';
  let deltas = 0;
  let stopped = false;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    if (ttfb < 0) ttfb = performance.now() - t0;
    // Events may straddle chunks: search the previous tail too, counting only matches that end in
    // the new text so none is counted twice.
    const text = tail + chunk.toString('utf8');
    for (let at = text.indexOf(DELTA_EVENT); at !== -1; at = text.indexOf(DELTA_EVENT, at + 1)) {
      if (at + DELTA_EVENT.length > tail.length) deltas += 1;
    }
    if (text.includes(STOP_EVENT)) stopped = true;
    tail = text.slice(-(DELTA_EVENT.length - 1));
  }
  const total = performance.now() - t0;
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
  if (deltas !== STREAM_DELTAS || !stopped) throw new Error(`stream had ${deltas} deltas, message_stop ${stopped}`);
  return { total, ttfb };
}

/**
 * Sends `total` requests of `kind` with `concurrency` workers. Failures are counted, not thrown, so
 * one bad response does not abort a whole run; the caller decides what an error count means.
 */
export async function runBatch(target: Target, kind: Kind, concurrency: number, total: number): Promise<BatchResult> {
  const streamed = kind === 'stream' || kind === 'cc-stream';
  const send = streamed ? streamRequest : plainRequest;
  const body = target.bodies[kind];
  const totalMs: number[] = [];
  const ttfbMs: number[] = [];
  let next = 0;
  let errors = 0;
  let firstError: string | null = null;
  const worker = async (index: number): Promise<void> => {
    const headers = headersFor(target, index, streamed);
    while (next < total) {
      next += 1;
      try {
        const { total: t, ttfb } = await send(target, headers, body);
        totalMs.push(t);
        ttfbMs.push(ttfb);
      } catch (error) {
        errors += 1;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, (_, i) => worker(i)));
  return { totalMs, ttfbMs, wallMs: performance.now() - t0, errors, firstError };
}

/** Waits until `origin` answers (any status) or the deadline passes. */
export async function waitForAnswer(target: Target, path: string, timeoutMs = 5000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      const res = await target.pool.request({ method: 'GET', path, headers: headersFor(target) });
      await res.body.dump();
      return;
    } catch (error) {
      if (performance.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}
