import { anthropicStreamFrames, splitText } from '../sse-frames';

/** The chaos upstream's bodies in the Anthropic Messages wire format: answers, 503s, 200s that are errors. */

export interface Parsed {
  model: string;
  stream: boolean;
}

export function parseRequest(body: string): Parsed {
  try {
    const json = JSON.parse(body) as { model?: unknown; stream?: unknown };
    return { model: typeof json.model === 'string' ? json.model : 'claude-sonnet-4-6', stream: json.stream === true };
  } catch {
    return { model: 'claude-sonnet-4-6', stream: false };
  }
}

/** The body of a normal answer: the SSE frames of a stream, or one Message JSON split in two halves. */
export function answerChunks(
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

export const UNAVAILABLE_BODY = JSON.stringify({
  type: 'error',
  error: { type: 'api_error', message: 'Service temporarily unavailable' },
});

const RATE_LIMIT_ERROR = JSON.stringify({
  type: 'error',
  error: { type: 'rate_limit_error', message: 'Number of requests has exceeded your rate limit' },
});

/** A 200 that is no answer: the error as the whole JSON body, or as a stream's first event. */
export function errorBodyOk(stream: boolean): { headers: Record<string, string>; body: string } {
  const body = stream ? `event: error\ndata: ${RATE_LIMIT_ERROR}\n\n` : RATE_LIMIT_ERROR;
  const type = stream ? 'text/event-stream' : 'application/json';
  return { headers: { 'content-type': type, 'content-length': String(Buffer.byteLength(body)) }, body };
}

export function unavailableHeaders(name: string, seq: number): Record<string, string> {
  return {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(UNAVAILABLE_BODY)),
    'request-id': `req_${name}_${seq}`,
    'x-fake-upstream': name,
  };
}
