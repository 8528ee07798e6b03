/**
 * The two shapes of a successful fake answer (one JSON body, or SSE frames written one by one) and
 * the request readers every answer builder shares.
 */
import type { ResponsePlan } from './fake-upstream-errors';
import type { RecordedRequest } from './fake-upstream-types';

/** Reads a property of a parsed JSON value without trusting its shape. */
export function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** Deterministic stand-in for a tokenizer: about four characters per token, never zero. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** Whether the request asked for SSE (`"stream": true`). */
export function wantsStream(req: RecordedRequest): boolean {
  return field(req.json, 'stream') === true;
}

export function jsonPlan(body: unknown, headers: Record<string, string>): ResponsePlan {
  const text = JSON.stringify(body);
  return {
    status: 200,
    headers: {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
      ...headers,
    },
    chunks: [text],
    streaming: false,
  };
}

export function ssePlan(frames: string[], headers: Record<string, string>): ResponsePlan {
  return {
    status: 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      ...headers,
    },
    chunks: frames,
    streaming: true,
  };
}

/**
 * Cuts JSON text into `parts` pieces (fewer when it is short) at uneven places: the first cut
 * falls right after `{"`, inside the first key, the others off the even grid, so pieces split
 * keys, values and escapes the way real upstreams' argument fragments do. Joined, they are the text.
 */
export function splitOddly(text: string, parts: number): string[] {
  const count = Math.max(1, Math.min(parts, text.length));
  const cuts = new Set<number>();
  if (count > 1) cuts.add(Math.min(2, text.length - 1));
  for (let k = 1; k < count && cuts.size < count - 1; k++) {
    const even = Math.floor((k * text.length) / count);
    const cut = even + (k % 2 === 0 ? -1 : 1);
    if (cut > 0 && cut < text.length) cuts.add(cut);
  }
  const sorted = [...cuts].sort((a, b) => a - b);
  return [0, ...sorted].map((start, i) => text.slice(start, sorted[i] ?? text.length));
}
