import { errors } from 'undici';
import type { UpstreamAnswer } from '../../kernel/upstream-answer';
import type { ChunkWatch } from '../../resilience/watchdog/stream-watchdog';
import type { WireFormat } from '../../../src-shared/domain/connection';
import type { Readable } from 'node:stream';
import { createSseReader, type SseReader } from '../../kernel/sse/sse-reader';
import { chainObservers, watchObserver, type ObserverChain, type StreamCut } from '../wire/chunk-observer';
import { statusOfErrorEvent, streamEndOf } from '../wire/stream-end';
import type { Usage, UsageTap } from '../wire/usage-tap';
import { isErrorObject, statusOfErrorObject } from '../../translate/error-body';
import { TranslationFailure } from '../../translate/translation-failure';

/**
 * A non-stream answer is held whole up to this size so a broken one can still fail over; past it
 * the rest streams unchecked. Answers to one request are rarely near it, and it matches the usage
 * tap's JSON cap: the bytes held are the same Buffers the tap keeps (no extra copy), and a body
 * the tap thinks too big to parse on the event loop is not parsed here either.
 */
export const ANSWER_HOLD_CAP = 1024 * 1024;

/** Bytes of an SSE preamble (comments, padding) held while waiting for the first event; then commit anyway. */
const SSE_HOLD_CAP = 64 * 1024;

/** The start of a 2xx answer, read before anything is committed to the client. */
export type AnswerStart =
  | {
      kind: 'ready';
      /** Bytes read so far, in order; the body is paused after them unless `ended`. */
      chunks: Buffer[];
      ended: boolean;
      firstByteAt: number | null;
      /** Set when the whole body was held: the tap's result, already computed. */
      usage: Usage | null;
    }
  /** Failed before the client saw a byte: failover is still possible. */
  /** `slow`: the throughput watchdog cut a stream that trickled before its first event (WATCH-6). */
  | { kind: 'failed'; failure: 'reset' | 'timeout' | 'empty_response' | 'slow'; detail: string }
  /**
   * The stream's first event is an error (Anthropic's `overloaded_error` right after the 200): as
   * good as that status, so it can fail over; else it is relayed as held, the client parses it.
   */
  | { kind: 'stream_error'; status: number; bodyText: string; held: Extract<AnswerStart, { kind: 'ready' }> }
  /**
   * A whole 2xx JSON body that is an error object (issue 21 §1): learned and failed over like the
   * status it stands for; when nothing else may serve, the client gets that status, not a 200.
   */
  | { kind: 'error_body'; status: number; body: Buffer }
  | { kind: 'aborted' };

/** What reading an answer's start needs besides the answer. */
export interface AnswerStartInput {
  /** The stream's wire format when the answer is SSE; null for a JSON (or other) body. */
  sse: WireFormat | null;
  tap: UsageTap;
  signal: AbortSignal;
  now: () => number;
  /** WATCH-1: the attempt's throughput watchdog; null when off (no per-chunk work). */
  watch: ChunkWatch | null;
}

type Ready = Extract<AnswerStart, { kind: 'ready' }>;

/**
 * Commit on first byte (ARCHITECTURE §2 step 4): reads a 2xx body until a stream's first complete
 * event, or a JSON body whole (up to the cap) and checks it is a JSON object. A reset, a stall or a
 * malformed answer before that point is reported as a failure, not relayed.
 */
export function readAnswerStart(upstream: UpstreamAnswer, input: AnswerStartInput): Promise<AnswerStart> {
  return new AnswerStartReader(upstream.body, input).read();
}

class AnswerStartReader {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private firstByteAt: number | null = null;
  /** The usage tap and the watchdog read every upstream read, these first ones here and the rest in the relay. */
  private readonly observers: ObserverChain;
  /** The SSE reader's events mode, until the first event: it holds nothing the chunks do not (views). */
  private readonly events: SseReader | null;
  private resolve: (start: AnswerStart) => void = ignore;

  constructor(
    private readonly body: Readable,
    private readonly input: AnswerStartInput,
  ) {
    this.observers = chainObservers(input.watch ? [input.tap, watchObserver(input.watch)] : [input.tap]);
    this.events = input.sse ? createSseReader({ overCap: 'skip' }) : null;
  }

  read(): Promise<AnswerStart> {
    return new Promise((resolve) => {
      this.resolve = resolve;
      this.body.on('data', this.onData);
      this.body.on('end', this.onEnd);
      this.body.on('error', this.onError);
    });
  }

  private finish(start: AnswerStart): void {
    this.body.off('data', this.onData);
    this.body.off('end', this.onEnd);
    this.body.off('error', this.onError);
    this.resolve(start);
  }

  private readonly onData = (chunk: Buffer): void => {
    this.firstByteAt ??= this.input.now();
    this.observers.onChunk(chunk);
    if (this.observers.cut !== null) return this.cutSlow(this.observers.cut);
    this.chunks.push(chunk);
    this.size += chunk.length;
    const sse = this.input.sse;
    const first = this.events === null ? undefined : this.events.push(chunk)[0];
    if (first === undefined && this.size <= (sse ? SSE_HOLD_CAP : ANSWER_HOLD_CAP)) return;
    this.body.pause();
    // An error while paused must not go unheard before the relay attaches its own listener.
    this.body.on('error', ignore);
    const held: Ready = {
      kind: 'ready',
      chunks: this.chunks,
      ended: false,
      firstByteAt: this.firstByteAt,
      usage: null,
    };
    if (first && sse && streamEndOf(sse, first) === 'error')
      return this.finish({ kind: 'stream_error', status: statusOfErrorEvent(first), bodyText: first.data, held });
    this.finish(held);
  };

  /** WATCH-6: only this attempt ends; destroying the body cancels the upstream request. */
  private cutSlow(verdict: StreamCut): void {
    this.body.on('error', ignore);
    this.body.destroy();
    const rate = `${verdict.bytesPerSecond.toFixed(1)} useful bytes/s over ${verdict.windowMs / 1000} s`;
    this.finish({ kind: 'failed', failure: 'slow', detail: `the upstream sent ${rate} before its answer began` });
  }

  private readonly onEnd = (): void => {
    const { chunks, size } = this;
    if (this.input.sse) {
      const detail = size === 0 ? 'an empty stream' : 'a stream that ended before its first event';
      return this.finish({ kind: 'failed', failure: 'empty_response', detail });
    }
    // The tap parses a held JSON body once anyway; its answer doubles as the validity check when it found usage.
    const usage = this.input.tap.finish();
    const verdict = judgeJson(chunks, size, usage);
    if (verdict.kind === 'malformed')
      return this.finish({ kind: 'failed', failure: 'empty_response', detail: verdict.detail });
    if (verdict.kind === 'error')
      return this.finish({ kind: 'error_body', status: verdict.status, body: verdict.body });
    this.finish({ kind: 'ready', chunks, ended: true, firstByteAt: this.firstByteAt, usage });
  };

  private readonly onError = (error: Error): void => {
    if (this.input.signal.aborted) return this.finish({ kind: 'aborted' });
    this.finish({ kind: 'failed', ...failureBeforeStart(error) });
  };
}

/** How a body that failed before its answer began failed. */
function failureBeforeStart(error: Error): { failure: 'reset' | 'timeout' | 'empty_response'; detail: string } {
  // A translated answer the bridge gave up on: malformed, like any unusable 200 (failover may help).
  if (error instanceof TranslationFailure) return { failure: 'empty_response', detail: error.what };
  if (error instanceof errors.BodyTimeoutError)
    return { failure: 'timeout', detail: 'the upstream went silent before its answer began' };
  return { failure: 'reset', detail: 'the upstream reset the connection before its answer began' };
}

function ignore(): void {}

type JsonVerdict =
  { kind: 'answer' } | { kind: 'malformed'; detail: string } | { kind: 'error'; status: number; body: Buffer };

/** Whether a whole non-stream body is an answer, no answer, or an error object standing for a status. */
function judgeJson(chunks: Buffer[], size: number, usage: Usage): JsonVerdict {
  if (size === 0) return { kind: 'malformed', detail: 'an empty body' };
  // Usage can only have come from a body that parsed as a JSON object, and error bodies carry none:
  // no second parse on the common path.
  if (
    usage.inputTokens !== null ||
    usage.outputTokens !== null ||
    usage.cacheReadTokens !== null ||
    usage.cacheWriteTokens !== null
  )
    return { kind: 'answer' };
  const whole = chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks, size);
  let value: unknown;
  try {
    value = JSON.parse(whole.toString('utf8'));
  } catch {
    return { kind: 'malformed', detail: 'a body that is not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { kind: 'malformed', detail: 'a JSON body that is not an object' };
  return isErrorObject(value) ? { kind: 'error', status: statusOfErrorObject(value), body: whole } : { kind: 'answer' };
}
