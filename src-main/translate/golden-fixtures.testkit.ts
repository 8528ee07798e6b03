import { readFileSync } from 'node:fs';
import type { Json, ResponseContext, SseOut, StreamTranslatorFactory } from './translate-types';

/**
 * Test support: golden cases live in `fixtures/<translator>.json`, written from the providers'
 * published wire formats. Stream events are stored with `data` parsed (or the string `[DONE]`)
 * so a person can read them; they are compared parsed, so key order and spacing do not matter.
 */
export interface StoredEvent {
  event: string | null;
  data: unknown;
  /** A raw (unframed) piece, as SseOut.raw. */
  raw?: true;
}

export function loadCases<T>(file: string): T[] {
  return JSON.parse(readFileSync(new URL(`./fixtures/${file}`, import.meta.url), 'utf8')) as T[];
}

export function toWire(event: StoredEvent): SseOut {
  const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
  return event.raw ? { event: event.event, data, raw: true } : { event: event.event, data };
}

export function fromWire(event: SseOut): StoredEvent {
  const data = event.data === '[DONE]' ? event.data : (JSON.parse(event.data) as unknown);
  return event.raw ? { event: event.event, data, raw: true } : { event: event.event, data };
}

/** Every event pushed, then `end()`: what the client would receive, in order. */
export function runStream(factory: StreamTranslatorFactory, context: ResponseContext, input: SseOut[]): SseOut[] {
  const translator = factory(context);
  const out: SseOut[] = [];
  for (const event of input) out.push(...translator.push(event.event, event.data));
  out.push(...translator.end());
  return out;
}

/** Freezes a parsed body all the way down, so a translator that writes into the client's body throws. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value as Json)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

const DELTA_FOR_BLOCK: Record<string, readonly string[]> = {
  text: ['text_delta', 'citations_delta'],
  tool_use: ['input_json_delta'],
  thinking: ['thinking_delta', 'signature_delta'],
};

/**
 * Checks Anthropic's stream grammar: message_start; blocks one at a time with dense indices
 * from 0, each delta of its block's kind; message_delta; message_stop; or an error event that
 * ends the stream. Returns the first violation, or null.
 */
export function anthropicGrammarViolation(events: readonly SseOut[]): string | null {
  let phase: 'start' | 'blocks' | 'delta' | 'stopped' | 'errored' = 'start';
  let open: { index: number; type: string } | null = null;
  let next = 0;
  for (const [position, event] of events.entries()) {
    const payload = JSON.parse(event.data) as Json;
    const where = `event ${position} (${String(payload.type)})`;
    if (event.event !== payload.type) return `${where}: event name ${String(event.event)} differs from type`;
    if (phase === 'stopped' || phase === 'errored') return `${where}: after the end`;
    if (payload.type === 'error') {
      phase = 'errored';
      continue;
    }
    if (phase === 'start') {
      if (payload.type !== 'message_start') return `${where}: expected message_start`;
      phase = 'blocks';
      continue;
    }
    switch (payload.type) {
      case 'content_block_start': {
        const block = payload.content_block as Json;
        if (phase !== 'blocks' || open) return `${where}: a block is already open or the message is closing`;
        if (payload.index !== next) return `${where}: index ${String(payload.index)}, expected ${next}`;
        open = { index: next++, type: String(block.type) };
        break;
      }
      case 'content_block_delta': {
        const delta = payload.delta as Json;
        if (!open || payload.index !== open.index) return `${where}: delta outside its open block`;
        if (!(DELTA_FOR_BLOCK[open.type] ?? []).includes(String(delta.type))) {
          return `${where}: ${String(delta.type)} in a ${open.type} block`;
        }
        break;
      }
      case 'content_block_stop':
        if (!open || payload.index !== open.index) return `${where}: stop of a block that is not open`;
        open = null;
        break;
      case 'message_delta':
        if (open || phase !== 'blocks') return `${where}: message_delta with a block open or twice`;
        phase = 'delta';
        break;
      case 'message_stop':
        if (phase !== 'delta') return `${where}: message_stop before message_delta`;
        phase = 'stopped';
        break;
      case 'ping':
        break;
      default:
        return `${where}: unknown event`;
    }
  }
  return null;
}

/** A body of newline-separated JSON values, as the SDKs' `fromReadableStream` helpers read it. */
export function jsonLines(events: readonly SseOut[]): ReadableStream<Uint8Array> {
  const text = events
    .filter((event) => event.data !== '[DONE]')
    .map((event) => event.data)
    .join('\n');
  return new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(`${text}\n`));
      controller.close();
    },
  });
}
