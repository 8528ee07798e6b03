import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import type { UpstreamAnswer } from '../kernel/upstream-answer';
import type { Bridge } from './bridges';
import { isErrorObject } from './error-body';
import { parseObject } from './json-narrow';
import { LONG_STRING } from './shared-json';
import { createSseReader, SseEventTooLarge, type SseReader } from '../kernel/sse/sse-reader';
import { writeSse } from './sse-writer';
import { TranslationFailure } from './translation-failure';
import type { Json, ResponseContext, SseOut, StreamTranslator } from './translate-types';

/** A translated JSON answer is held whole; past this it is refused rather than parsed on the event loop. */
const JSON_CAP = 8 * 1024 * 1024;

/** Headers that described the upstream's bytes and no longer describe ours. */
const STALE = ['content-length', 'content-encoding', 'content-md5', 'etag', 'digest'];

/** Bytes in, the client's wire text out, in pieces (a huge event is a piece of its own). */
interface ChunkTranslator {
  push(chunk: Buffer): string[];
  end(): string[];
}

/**
 * A 2xx upstream answer as the client's format: the body becomes a stream of translated bytes
 * that the rest of the path (answer start, usage tap, watchdog, relay) reads like any upstream
 * body. Backpressure both ways; destroying it cancels the upstream; a broken translation ends it
 * with an error, so the attempt can still fail over when nothing was committed.
 */
export function bridgeResponse(
  upstream: UpstreamAnswer,
  bridge: Bridge,
  requests: readonly Json[],
  context: Omit<ResponseContext, 'request'>,
): UpstreamAnswer {
  const contentType = upstream.headers['content-type'];
  const sse = typeof contentType === 'string' && contentType.includes('text/event-stream');
  const translator = sse ? streamChunks(bridge, requests, context) : jsonChunks(bridge, requests, context);
  const headers: IncomingHttpHeaders = { ...upstream.headers };
  for (const name of STALE) delete headers[name];
  headers['content-type'] = sse ? 'text/event-stream; charset=utf-8' : 'application/json';
  return { statusCode: upstream.statusCode, headers, body: translatedBody(upstream.body, translator) };
}

function translatedBody(source: Readable, translator: ChunkTranslator): Readable {
  const out = new Readable({
    read() {
      source.resume();
    },
    destroy(error, callback) {
      source.destroy();
      callback(error);
    },
  });
  const emit = (pieces: string[]) => {
    let full = false;
    // A long string repeated by several events of one push (a Responses stream's finished text) is
    // encoded once; the same bytes are pushed again (a Buffer in a stream is only ever read).
    let long: string | null = null;
    let longBytes: Buffer | null = null;
    for (const text of pieces) {
      let bytes: Buffer;
      if (longBytes !== null && text === long) bytes = longBytes;
      else {
        bytes = Buffer.from(text, 'utf8');
        if (text.length >= LONG_STRING) {
          long = text;
          longBytes = bytes;
        }
      }
      if (!out.push(bytes)) full = true;
    }
    if (full) source.pause();
  };
  source.on('data', (chunk: Buffer) => {
    if (out.destroyed) return;
    try {
      emit(translator.push(chunk));
    } catch (error) {
      out.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  });
  source.on('end', () => {
    try {
      emit(translator.end());
      out.push(null);
    } catch (error) {
      out.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  });
  // The same error object travels on: a body timeout is still told apart from a reset downstream.
  source.on('error', (error) => out.destroy(error));
  source.pause();
  return out;
}

function streamChunks(
  bridge: Bridge,
  requests: readonly Json[],
  context: Omit<ResponseContext, 'request'>,
): ChunkTranslator {
  const reader = createSseReader();
  // Upstream-side first: the last hop reads the upstream's events, the first writes the client's.
  const chain: StreamTranslator[] = [];
  for (let i = bridge.hops.length - 1; i >= 0; i--) {
    const hop = bridge.hops[i];
    if (hop) chain.push(hop.stream({ ...context, request: requests[i] ?? {} }));
  }
  const through = (events: SseOut[], ending: boolean): SseOut[] => {
    let current = events;
    for (const stage of chain) {
      const next: SseOut[] = [];
      for (const e of current) next.push(...stage.push(e.event, e.data));
      if (ending) next.push(...stage.end());
      current = next;
    }
    return current;
  };
  return {
    push: (chunk) => writeSse(through(readEvents(reader, chunk), false)),
    end: () => writeSse(through(reader.end(), true)),
  };
}

/** The reader's read, with an event past its cap named as an answer Leeway cannot translate. */
function readEvents(reader: SseReader, chunk: Buffer): SseOut[] {
  try {
    return reader.push(chunk);
  } catch (error) {
    if (error instanceof SseEventTooLarge) throw new TranslationFailure(error.message);
    throw error;
  }
}

function jsonChunks(
  bridge: Bridge,
  requests: readonly Json[],
  context: Omit<ResponseContext, 'request'>,
): ChunkTranslator {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    push(chunk) {
      size += chunk.length;
      if (size > JSON_CAP) throw new TranslationFailure(`an answer over ${JSON_CAP / (1024 * 1024)} MiB`);
      chunks.push(chunk);
      return [];
    },
    end() {
      const text = Buffer.concat(chunks, size).toString('utf8');
      const parsed = parseObject(text);
      if (!parsed) throw new TranslationFailure('a body that is not a JSON object');
      // An error is no answer to translate (issue 21 §1): it goes on as it came, and the attempt
      // learns it like the status it stands for; the error relay puts it in the client's format.
      if (isErrorObject(parsed)) return [text];
      let body: Json = parsed;
      for (let i = bridge.hops.length - 1; i >= 0; i--) {
        const hop = bridge.hops[i];
        if (hop) body = hop.response(body, { ...context, request: requests[i] ?? {} });
      }
      return [JSON.stringify(body)];
    },
  };
}
