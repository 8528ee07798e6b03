import { readFileSync } from 'node:fs';
import { asObject, parseObject } from './json-narrow';
import { createSseReader } from '../kernel/sse/sse-reader';
import type { Json, SseOut, StreamTranslator } from './translate-types';

/** Test support for the Responses translators: fixtures and stream plumbing (imported by tests only). */

export function responsesFixture(name: string): Json {
  const parsed = parseObject(readFixtureText(name));
  if (!parsed) throw new Error(`fixture ${name} is not a JSON object`);
  return parsed;
}

export function readFixtureText(name: string): string {
  return readFileSync(new URL(`./fixtures/responses/${name}`, import.meta.url), 'utf8');
}

/** An upstream SSE fixture as the events the request path would feed a stream translator. */
export function sseFixtureEvents(name: string): SseOut[] {
  const reader = createSseReader();
  return [...reader.push(Buffer.from(readFixtureText(name), 'utf8')), ...reader.end()];
}

export interface ClientEvent {
  event: string | null;
  type: string;
  data: Json;
}

/** Runs upstream events through a translator (then `end()`), returning the client events parsed. */
export function runStream(translator: StreamTranslator, events: readonly SseOut[], end = true): ClientEvent[] {
  const out: SseOut[] = [];
  for (const e of events) out.push(...translator.push(e.event, e.data));
  if (end) out.push(...translator.end());
  return out.map((e) => {
    const data = parseObject(e.data);
    if (!data) throw new Error(`client event is not JSON: ${e.data}`);
    return { event: e.event, type: String(data.type), data };
  });
}

/** A chat.completion.chunk with one choice. */
export function chatChunk(delta: Json, finishReason: string | null = null): Json {
  return {
    id: 'chatcmpl-t',
    object: 'chat.completion.chunk',
    created: 1767225600,
    model: 'up',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

export function sse(data: Json | string): SseOut {
  return { event: null, data: typeof data === 'string' ? data : JSON.stringify(data) };
}

export function itemOf(event: ClientEvent): Json {
  const item = asObject(event.data.item);
  if (!item) throw new Error(`${event.type} has no item`);
  return item;
}

export function responseOf(event: ClientEvent): Json {
  const response = asObject(event.data.response);
  if (!response) throw new Error(`${event.type} has no response`);
  return response;
}
