import { isErrorObject, statusOfErrorObject } from '../../translate/error-body';
import type { WireFormat } from '../../../src-shared/domain/connection';

/** What a stream's last event says about how it ended. */
export type StreamEnd = 'terminal' | 'error' | 'missing';

/**
 * Spots the first event an SSE parser would dispatch (a block with a `data` line, ended by a blank
 * line); comments and bare `event:` blocks do not count. Scans each byte once: only the unfinished
 * line is kept between calls.
 */
export interface EventSpotter {
  /** Feeds decoded text; true once a complete event has been seen. */
  push(text: string): boolean;
}

export function createEventSpotter(): EventSpotter {
  let line = '';
  let sawData = false;
  let done = false;
  return {
    push(text) {
      if (done) return true;
      let start = 0;
      let newline = text.indexOf('\n');
      while (newline !== -1) {
        const full = line + text.slice(start, newline);
        line = '';
        const bare = full.endsWith('\r') ? full.slice(0, -1) : full;
        if (bare === '') {
          if (sawData) return (done = true);
        } else if (isDataLine(bare)) {
          sawData = true;
        }
        start = newline + 1;
        newline = text.indexOf('\n', start);
      }
      line += text.slice(start);
      return false;
    },
  };
}

function isDataLine(line: string): boolean {
  return line === 'data' || line.startsWith('data:');
}

export interface SseEvent {
  event: string | null;
  data: string;
}

/**
 * The dispatchable events in a piece of a stream (the held start, or a kept last block); an unterminated
 * last block counts too, as line-based clients would still read it. Only for small pieces.
 */
export function eventsOf(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  let event: string | null = null;
  let data: string[] = [];
  const close = () => {
    if (data.length > 0) events.push({ event, data: data.join('\n') });
    event = null;
    data = [];
  };
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '') close();
    else if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (isDataLine(line)) data.push(line.slice(5).trimStart());
  }
  close();
  return events;
}

/**
 * The first dispatchable event of `text`, read as `eventsOf` reads it, without splitting the rest:
 * a stream's held start often holds many events, and only the first decides (an error or not).
 */
export function firstEventOf(text: string): SseEvent | undefined {
  let event: string | null = null;
  let data: string[] = [];
  let start = 0;
  while (start <= text.length) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const raw = text.slice(start, end);
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '') {
      if (data.length > 0) return { event, data: data.join('\n') };
      event = null;
      data = [];
    } else if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (isDataLine(line)) data.push(line.slice(5).trimStart());
    if (newline === -1) break;
    start = newline + 1;
  }
  return data.length > 0 ? { event, data: data.join('\n') } : undefined;
}

/** The status an in-band error event stands for, so it is learned like the status it replaces. */
export function statusOfErrorEvent(event: SseEvent): number {
  // Error events are rare: one parse, read with the same vocabulary as error bodies.
  try {
    const value: unknown = JSON.parse(event.data);
    // A Responses `response.failed` event wraps its response object.
    const inner = typeof value === 'object' && value !== null && 'response' in value ? value.response : value;
    return statusOfErrorObject(isErrorObject(inner) ? inner : value);
  } catch {
    if (event.data.includes('overloaded_error')) return 529;
    if (event.data.includes('rate_limit')) return 429;
    return 500;
  }
}

/**
 * Anthropic streams end with `message_stop`, OpenAI chat streams with `data: [DONE]`, Responses
 * streams with `response.completed` / `response.incomplete`; an error event also ends them.
 */
export function streamEndOf(format: WireFormat, last: SseEvent | null): StreamEnd {
  if (!last) return 'missing';
  if (format === 'responses') return responsesEndOf(last);
  if (format === 'gemini') return geminiEndOf(last);
  if (format === 'anthropic') {
    if (last.event === 'message_stop' || (last.event === null && last.data.includes('"message_stop"')))
      return 'terminal';
    return last.event === 'error' ? 'error' : 'missing';
  }
  const data = last.data.trim();
  if (data === '[DONE]') return 'terminal';
  // Only a chunk that mentions "error" is parsed: ordinary deltas are told apart without JSON.parse.
  return data.startsWith('{') && data.includes('"error"') && hasErrorField(data) ? 'error' : 'missing';
}

/** Issue 23: a Gemini stream has no terminal event; its last chunk carries the candidate's finishReason. */
function geminiEndOf(last: SseEvent): StreamEnd {
  const data = last.data.trim();
  if (data.includes('"finishReason"')) return 'terminal';
  return data.startsWith('{') && data.includes('"error"') && hasErrorField(data) ? 'error' : 'missing';
}

function hasErrorField(data: string): boolean {
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null && 'error' in value;
  } catch {
    return false;
  }
}

const RESPONSES_TERMINAL: ReadonlySet<string> = new Set(['response.completed', 'response.incomplete']);
const RESPONSES_ERROR: ReadonlySet<string> = new Set(['response.failed', 'error']);

/** A Responses stream names every event (`event:` = its `type`); a nameless one is read by its type field. */
function responsesEndOf(last: SseEvent): StreamEnd {
  const name = last.event ?? typeOf(last.data);
  if (name !== null && RESPONSES_TERMINAL.has(name)) return 'terminal';
  return name !== null && RESPONSES_ERROR.has(name) ? 'error' : 'missing';
}

/** A leading `"type"` key, read without parsing: a kept head of a huge event is cut short of valid JSON. */
const LEADING_TYPE = /^\s*\{\s*"type"\s*:\s*"([^"\\]+)"/;

function typeOf(data: string): string | null {
  try {
    const value: unknown = JSON.parse(data);
    if (typeof value !== 'object' || value === null || !('type' in value)) return null;
    return typeof value.type === 'string' ? value.type : null;
  } catch {
    return LEADING_TYPE.exec(data)?.[1] ?? null;
  }
}
