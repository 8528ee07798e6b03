/**
 * The load generator: closed-loop workers on an undici keep-alive Pool, one request in flight per
 * worker, timing each request from send to the last body byte (and to the first body byte for streams).
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { MODEL, STREAM_DELTAS } from './shared';

const DELTA_EVENT = 'event: content_block_delta';
const STOP_EVENT = 'event: message_stop';

export interface Target {
  name: 'direct' | 'floor' | 'headroom';
  origin: string;
  /** x-api-key to send: the upstream's key, or Headroom's local key. */
  key: string;
  pool: Pool;
}

export function createTarget(name: Target['name'], origin: string, key: string, connections: number): Target {
  const pool = new Pool(origin, {
    connections,
    pipelining: 1,
    keepAliveTimeout: 60_000,
    keepAliveMaxTimeout: 120_000,
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  });
  return { name, origin, key, pool };
}

const SMALL_BODY = Buffer.from(
  JSON.stringify({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'Say hello.' }] }),
);
const STREAM_BODY = Buffer.from(
  JSON.stringify({ model: MODEL, max_tokens: 256, stream: true, messages: [{ role: 'user', content: 'Say hello.' }] }),
);

function headersFor(target: Target): Record<string, string> {
  return {
    'content-type': 'application/json',
    'anthropic-version': '2023-06-01',
    'x-api-key': target.key,
  };
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

/** One small non-streaming POST /v1/messages; throws on anything but a complete 200. */
async function smallRequest(target: Target): Promise<{ total: number; ttfb: number }> {
  const t0 = performance.now();
  const res = await target.pool.request({
    method: 'POST',
    path: '/v1/messages',
    headers: headersFor(target),
    body: SMALL_BODY,
  });
  const text = await res.body.text();
  const total = performance.now() - t0;
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
  if (!text.includes('"end_turn"')) throw new Error(`unexpected body: ${text.slice(0, 200)}`);
  return { total, ttfb: total };
}

/** One streamed POST /v1/messages; TTFB is the first body chunk (the first SSE event). */
async function streamRequest(target: Target): Promise<{ total: number; ttfb: number }> {
  const t0 = performance.now();
  const res = await target.pool.request({
    method: 'POST',
    path: '/v1/messages',
    headers: { ...headersFor(target), accept: 'text/event-stream' },
    body: STREAM_BODY,
  });
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

export type Kind = 'small' | 'stream';

/**
 * Sends `total` requests of `kind` with `concurrency` workers. Failures are counted, not thrown, so
 * one bad response does not abort a whole run; the caller decides what an error count means.
 */
export async function runBatch(target: Target, kind: Kind, concurrency: number, total: number): Promise<BatchResult> {
  const send = kind === 'small' ? smallRequest : streamRequest;
  const totalMs: number[] = [];
  const ttfbMs: number[] = [];
  let next = 0;
  let errors = 0;
  let firstError: string | null = null;
  const worker = async (): Promise<void> => {
    while (next < total) {
      next += 1;
      try {
        const { total: t, ttfb } = await send(target);
        totalMs.push(t);
        ttfbMs.push(ttfb);
      } catch (error) {
        errors += 1;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
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
