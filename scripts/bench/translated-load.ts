/**
 * The translated rows' load generator: closed-loop workers on one undici keep-alive Pool to the
 * Leeway child, one request in flight per worker, timed from send to the last body byte (and to
 * the first body byte for streams), like load.ts but for any of the three client wire formats.
 */
import { performance } from 'node:perf_hooks';
import type { Pool } from 'undici';
import type { BatchResult } from './load';
import {
  checkAnswer,
  isStream,
  requestBody,
  requestHeaders,
  requestPath,
  streamCheck,
  type Client,
  type Shape,
} from './translated-wire';

/** One measured lane: a client format and body shape asking for a model that picks the connection. */
export interface Lane {
  client: Client;
  shape: Shape;
  model: string;
  path: string;
  headers: Record<string, string>;
  /** Serialised once: the load generator's own cost stays out of the numbers. */
  body: Buffer;
  streamed: boolean;
}

export function createLane(client: Client, shape: Shape, model: string, key: string): Lane {
  const streamed = isStream(shape);
  return {
    client,
    shape,
    model,
    path: requestPath(client),
    headers: requestHeaders(client, key, streamed),
    body: requestBody(client, shape, model),
    streamed,
  };
}

async function send(pool: Pool, lane: Lane): Promise<{ total: number; ttfb: number }> {
  const t0 = performance.now();
  const res = await pool.request({ method: 'POST', path: lane.path, headers: lane.headers, body: lane.body });
  if (!lane.streamed) {
    const text = await res.body.text();
    const total = performance.now() - t0;
    if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
    const wrong = checkAnswer(lane.client, text);
    if (wrong) throw new Error(wrong);
    return { total, ttfb: total };
  }
  let ttfb = -1;
  const check = streamCheck(lane.client);
  let head = '';
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    if (ttfb < 0) ttfb = performance.now() - t0;
    const text = chunk.toString('utf8');
    if (head.length < 200) head += text;
    check.feed(text);
  }
  const total = performance.now() - t0;
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${head.slice(0, 200)}`);
  const wrong = check.finish();
  if (wrong) throw new Error(wrong);
  return { total, ttfb };
}

/** Sends `total` requests with `concurrency` workers; failures are counted, not thrown. */
export async function runLane(pool: Pool, lane: Lane, concurrency: number, total: number): Promise<BatchResult> {
  const totalMs: number[] = [];
  const ttfbMs: number[] = [];
  let next = 0;
  let errors = 0;
  let firstError: string | null = null;
  const worker = async (): Promise<void> => {
    while (next < total) {
      next += 1;
      try {
        const { total: t, ttfb } = await send(pool, lane);
        totalMs.push(t);
        ttfbMs.push(ttfb);
      } catch (error) {
        errors += 1;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, () => worker()));
  return { totalMs, ttfbMs, wallMs: performance.now() - t0, errors, firstError };
}
