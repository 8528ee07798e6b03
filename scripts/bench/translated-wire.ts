/**
 * What each client of the translated rows sends and what it must get back: Anthropic Messages,
 * OpenAI Chat Completions and the Responses API (codex), plain and streamed. Every answer is
 * checked for the full bench text, the stop reason and (streams) the 50 deltas, so a translated
 * answer that loses or merges events counts as an error, never as a fast request.
 */
import { claudeCodeBody } from './claude-body';
import { STREAM_DELTAS } from './shared';

export type Client = 'anthropic' | 'openai' | 'responses';
export type Shape = 'small' | 'stream' | 'cc' | 'cc-stream';

/** The text both fake upstreams answer with: STREAM_DELTAS words, cut into one delta each. */
export function benchText(): string {
  return Array.from({ length: STREAM_DELTAS }, (_, i) => `t${i} `).join('');
}

export function isStream(shape: Shape): boolean {
  return shape === 'stream' || shape === 'cc-stream';
}

/** A field of a parsed JSON value, or undefined: narrowing without casts. */
function at(value: unknown, key: string | number): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  return (value as Record<string | number, unknown>)[key];
}

const asString = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const HELLO = 'Say hello.';

/** The request body a client sends for `shape` (Claude Code-shaped bodies: Anthropic clients only). */
export function requestBody(client: Client, shape: Shape, model: string): Buffer {
  const stream = isStream(shape);
  if (client === 'anthropic') {
    if (shape === 'cc' || shape === 'cc-stream') return Buffer.from(JSON.stringify(claudeCodeBody(model, stream)));
    const messages = [{ role: 'user', content: HELLO }];
    return Buffer.from(
      JSON.stringify({ model, max_tokens: stream ? 256 : 64, ...(stream ? { stream } : {}), messages }),
    );
  }
  if (shape === 'cc' || shape === 'cc-stream') throw new Error(`${client} client: no Claude Code-shaped body`);
  if (client === 'openai') {
    const messages = [{ role: 'user', content: HELLO }];
    // include_usage as aider / LiteLLM ask for it: the translated stream must then produce usage too.
    const streaming = stream ? { stream: true, stream_options: { include_usage: true } } : {};
    return Buffer.from(JSON.stringify({ model, max_tokens: stream ? 256 : 64, ...streaming, messages }));
  }
  // The codex CLI's shape, cut down: instructions, one input message, store off.
  const input = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: HELLO }] }];
  return Buffer.from(
    JSON.stringify({
      model,
      instructions: 'You are a coding agent.',
      input,
      max_output_tokens: 256,
      store: false,
      ...(stream ? { stream } : {}),
    }),
  );
}

export function requestPath(client: Client): string {
  return client === 'anthropic' ? '/v1/messages' : client === 'openai' ? '/v1/chat/completions' : '/v1/responses';
}

export function requestHeaders(client: Client, key: string, stream: boolean): Record<string, string> {
  const headers: Record<string, string> =
    client === 'anthropic'
      ? { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'x-api-key': key }
      : { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  if (stream) headers.accept = 'text/event-stream';
  return headers;
}

/** Checks a complete non-stream answer; returns what is wrong, or null. */
export function checkAnswer(client: Client, text: string): string | null {
  const json = parse(text);
  const expected = benchText();
  let said: string;
  let stop: unknown;
  if (client === 'anthropic') {
    said = asArray(at(json, 'content'))
      .map((block) => (at(block, 'type') === 'text' ? (asString(at(block, 'text')) ?? '') : ''))
      .join('');
    stop = at(json, 'stop_reason');
    if (stop !== 'end_turn') return `stop_reason ${String(stop)}: ${text.slice(0, 200)}`;
  } else if (client === 'openai') {
    const choice = at(at(json, 'choices'), 0);
    said = asString(at(at(choice, 'message'), 'content')) ?? '';
    stop = at(choice, 'finish_reason');
    if (stop !== 'stop') return `finish_reason ${String(stop)}: ${text.slice(0, 200)}`;
  } else {
    said = asArray(at(json, 'output'))
      .flatMap((item) => asArray(at(item, 'content')))
      .map((part) => (at(part, 'type') === 'output_text' ? (asString(at(part, 'text')) ?? '') : ''))
      .join('');
    stop = at(json, 'status');
    if (stop !== 'completed') return `status ${String(stop)}: ${text.slice(0, 200)}`;
  }
  return said === expected ? null : `text differs: ${JSON.stringify(said.slice(0, 80))}`;
}

/** Reads a stream as it arrives (events may straddle chunks); `finish` says what was wrong, or null. */
export interface StreamCheck {
  feed(chunk: string): void;
  finish(): string | null;
}

export function streamCheck(client: Client): StreamCheck {
  let buffer = '';
  let said = '';
  let deltas = 0;
  let done = false;
  let problem: string | null = null;
  const onEvent = (name: string | null, data: string) => {
    if (client === 'openai') {
      if (data === '[DONE]') return void (done = true);
      const content = asString(at(at(at(at(parse(data), 'choices'), 0), 'delta'), 'content'));
      if (content) {
        said += content;
        deltas += 1;
      }
      return;
    }
    if (name === 'error' || name === 'response.failed') return void (problem ??= `${name}: ${data.slice(0, 200)}`);
    if (client === 'anthropic') {
      if (name === 'message_stop') return void (done = true);
      if (name !== 'content_block_delta') return;
      const text = asString(at(at(parse(data), 'delta'), 'text'));
      if (text) {
        said += text;
        deltas += 1;
      }
      return;
    }
    if (name === 'response.completed') return void (done = true);
    if (name !== 'response.output_text.delta') return;
    const text = asString(at(parse(data), 'delta'));
    if (text) {
      said += text;
      deltas += 1;
    }
  };
  const flush = (block: string) => {
    let name: string | null = null;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) name = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (data.length > 0) onEvent(name, data.join('\n'));
  };
  return {
    feed(chunk) {
      buffer += chunk.includes('\r') ? chunk.replace(/\r\n/g, '\n') : chunk;
      for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
        flush(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
      }
    },
    finish() {
      if (buffer.trim() !== '') flush(buffer);
      if (problem) return problem;
      if (!done) return `stream ended without its terminal event (${deltas} deltas)`;
      if (deltas !== STREAM_DELTAS) return `stream had ${deltas} text deltas, not ${STREAM_DELTAS}`;
      return said === benchText() ? null : `streamed text differs: ${JSON.stringify(said.slice(0, 80))}`;
    },
  };
}
