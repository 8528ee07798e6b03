/**
 * Pure builders for the exact SSE bytes the fake upstreams write, so a test can compute (or
 * compare against) what a proxy must relay byte for byte. Shapes follow the public wire formats.
 */

/** One Anthropic SSE event: `event:` line, `data:` line, blank line. */
export function anthropicEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** One OpenAI SSE event: OpenAI sends bare `data:` lines without an `event:` field. */
export function openaiEvent(data: unknown): string {
  return `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

/** Splits text into at most `parts` non-empty pieces of near-equal length, keeping every character. */
export function splitText(text: string, parts: number): string[] {
  const count = Math.max(1, Math.min(parts, text.length));
  if (text.length === 0) return [''];
  const pieces: string[] = [];
  let start = 0;
  for (let i = 0; i < count; i++) {
    const end = Math.round(((i + 1) * text.length) / count);
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}

export interface AnthropicStreamOptions {
  id: string;
  model: string;
  deltas: readonly string[];
  inputTokens: number;
  outputTokens: number;
}

/** The full Messages stream: message_start, content_block_start, ping, deltas, stops, message_delta. */
export function anthropicStreamFrames(opts: AnthropicStreamOptions): string[] {
  const message = {
    id: opts.id,
    type: 'message',
    role: 'assistant',
    model: opts.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    // The real API reports input usage up front and a placeholder output count of 1.
    usage: {
      input_tokens: opts.inputTokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 1,
    },
  };
  return [
    anthropicEvent('message_start', { type: 'message_start', message }),
    anthropicEvent('content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    }),
    anthropicEvent('ping', { type: 'ping' }),
    ...opts.deltas.map((text) =>
      anthropicEvent('content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text },
      }),
    ),
    anthropicEvent('content_block_stop', {
      type: 'content_block_stop',
      index: 0,
    }),
    anthropicEvent('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: opts.outputTokens },
    }),
    anthropicEvent('message_stop', { type: 'message_stop' }),
  ];
}

export interface OpenaiStreamOptions {
  id: string;
  model: string;
  created: number;
  deltas: readonly string[];
  /** Mirrors `stream_options.include_usage`: adds `usage: null` to every chunk plus a usage-only chunk. */
  includeUsage: boolean;
  promptTokens: number;
  completionTokens: number;
}

export const OPENAI_SYSTEM_FINGERPRINT = 'fp_fake0001';

/** The full chat.completion.chunk stream: role delta, content deltas, finish chunk, usage chunk?, [DONE]. */
export function openaiStreamFrames(opts: OpenaiStreamOptions): string[] {
  const chunk = (choices: unknown[], usage?: unknown): string =>
    openaiEvent({
      id: opts.id,
      object: 'chat.completion.chunk',
      created: opts.created,
      model: opts.model,
      system_fingerprint: OPENAI_SYSTEM_FINGERPRINT,
      choices,
      ...(opts.includeUsage ? { usage: usage ?? null } : {}),
    });
  const choice = (delta: unknown, finishReason: string | null): unknown => ({
    index: 0,
    delta,
    logprobs: null,
    finish_reason: finishReason,
  });
  const frames = [
    chunk([choice({ role: 'assistant', content: '', refusal: null }, null)]),
    ...opts.deltas.map((content) => chunk([choice({ content }, null)])),
    chunk([choice({}, 'stop')]),
  ];
  if (opts.includeUsage) {
    frames.push(chunk([], openaiUsage(opts.promptTokens, opts.completionTokens)));
  }
  frames.push(openaiEvent('[DONE]'));
  return frames;
}

/** Usage object as OpenAI reports it, details included, so parsers see realistic nesting. */
export function openaiUsage(promptTokens: number, completionTokens: number): Record<string, unknown> {
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
  };
}

/** A mid-stream Anthropic `error` event, as sent when the API overloads after the 200 headers. */
export function anthropicErrorFrame(type: string, message: string): string {
  return anthropicEvent('error', { type: 'error', error: { type, message } });
}

/** A mid-stream OpenAI error: a `data:` line carrying the usual error envelope. */
export function openaiErrorFrame(type: string, message: string): string {
  return openaiEvent({ error: { message, type, param: null, code: null } });
}

/** Cuts bytes into pieces of `size`, so lines and characters straddle chunk boundaries. */
export function cutBytes(bytes: Buffer, size: number): Buffer[] {
  const pieces: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.subarray(i, i + size));
  return pieces;
}

/** One SSE data line of `total` bytes (a text delta of `a`s), newline included. */
export function hugeDataLine(total: number): Buffer {
  const huge = Buffer.alloc(total, 'a');
  huge.write('data: {"type":"content_block_delta","delta":{"text":"');
  huge.write('"}}\n', total - 4);
  return huge;
}
