import { createLastEventReader } from '../../kernel/sse/last-event';
import type { SseEvent } from '../../kernel/sse/sse-lines';
import { isErrorObject, statusOfErrorObject } from '../../translate/error-body';
import type { WireFormat } from '../../../src-shared/domain/connection';
import type { ChunkObserver } from './chunk-observer';

/** What a stream's last event says about how it ended. */
export type StreamEnd = 'terminal' | 'error' | 'missing';

/**
 * Reads how a relayed stream ended as its bytes pass to the client, without holding it: the SSE
 * reader's last-event mode keeps only the head of the newest event block (a terminal event bigger
 * than a read included).
 */
export interface StreamEndKeeper extends ChunkObserver {
  /** How the stream ended, once it has. */
  end(): StreamEnd;
}

export function createStreamEndKeeper(format: WireFormat): StreamEndKeeper {
  const reader = createLastEventReader();
  return {
    onChunk(chunk) {
      reader.push(chunk);
      return chunk;
    },
    onEnd: () => null,
    end: () => streamEndOf(format, reader.last()),
  };
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
 * streams with `response.completed` / `response.incomplete`; an error event also ends them. An
 * event's name is read without the spaces around it.
 */
export function streamEndOf(format: WireFormat, last: SseEvent | null): StreamEnd {
  if (!last) return 'missing';
  const name = last.event === null ? null : last.event.trim();
  if (format === 'responses') return responsesEndOf(name, last.data);
  if (format === 'gemini') return geminiEndOf(last.data.trim());
  if (format === 'anthropic') {
    if (name === 'message_stop' || (name === null && last.data.includes('"message_stop"'))) return 'terminal';
    return name === 'error' ? 'error' : 'missing';
  }
  const data = last.data.trim();
  if (data === '[DONE]') return 'terminal';
  // Only a chunk that mentions "error" is parsed: ordinary deltas are told apart without JSON.parse.
  return data.startsWith('{') && data.includes('"error"') && hasErrorField(data) ? 'error' : 'missing';
}

/** Issue 23: a Gemini stream has no terminal event; its last chunk carries the candidate's finishReason. */
function geminiEndOf(data: string): StreamEnd {
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
function responsesEndOf(event: string | null, data: string): StreamEnd {
  const name = event ?? typeOf(data);
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
