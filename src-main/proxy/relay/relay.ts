import type { ServerResponse } from 'node:http';
import type { ChunkWatch } from '../../resilience/watchdog/stream-watchdog';
import type { AnswerStart } from './answer-start';
import type { WireFormat } from '../../../src-shared/domain/connection';
import { TranslationFailure } from '../../translate/translation-failure';
import { chainObservers, watchObserver, type ChunkObserver, type StreamCut } from '../wire/chunk-observer';
import { createStreamEndKeeper } from '../wire/stream-end';
import { headerValue } from '../wire/header-value';
import { createSecretScrubber } from './secret-scrubber';
import { isShuttingDown } from '../stages/in-flight';
import type { UpstreamAnswer } from '../../kernel/upstream-answer';
import { clientHeaderList } from './upstream-headers';
import type { Usage, UsageTap } from '../wire/usage-tap';

export interface RelayOutcome {
  /** True when every byte reached the client and the response ended normally. */
  complete: boolean;
  clientGone: boolean;
  ttfbMs: number | null;
  usage: Usage;
  /** Why the answer is not a clean success, for the activity log; null when it is. */
  errorCode:
    'client_closed' | 'upstream_stream_error' | 'upstream_invalid_response' | 'upstream_too_slow' | 'shutdown' | null;
}

type ReadyStart = Extract<AnswerStart, { kind: 'ready' }>;

/** One answer to relay: the upstream's (or its translation), what was held before the commit, and what reads it. */
export interface RelayInput {
  upstream: UpstreamAnswer;
  start: ReadyStart;
  tap: UsageTap;
  /** Leeway's own response headers (`x-leeway-*`). */
  headers: Record<string, string>;
  format: WireFormat;
  startedAt: number;
  /** WATCH-1: the attempt's throughput watchdog (it saw the held chunks already); null when off. */
  watch: ChunkWatch | null;
  /** The connection's credentials, masked in every relayed header and byte. */
  secrets: readonly string[];
  /** SSE comments written before the stream ends, when its headers went out before a connection was picked. */
  trailer: string | null;
}

/** Ends an already-started SSE response with an error event the client can parse. */
export function endStreamWithError(
  res: ServerResponse,
  format: WireFormat,
  message: string,
  code = 'upstream_error',
  /** SSE comments said before the error event (a held stream's would-be headers). */
  trailer: string | null = null,
): void {
  if (res.destroyed || res.writableEnded) return;
  res.end(`${trailer ?? ''}${streamErrorFrame(format, message, code)}`);
}

/** The last words of a stream that broke after the client already had bytes: an error event it can parse. */
function streamErrorFrame(format: WireFormat, message: string, code: string): string {
  switch (format) {
    case 'anthropic':
      return `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'api_error', message } })}\n\n`;
    case 'openai':
      return `data: ${JSON.stringify({ error: { message, type: 'server_error', code } })}\n\n`;
    case 'responses':
      // The Responses stream's own failure event: codex reads `response.error` and shows the message.
      return `event: response.failed\ndata: ${JSON.stringify({ type: 'response.failed', response: { status: 'failed', error: { code, message } } })}\n\n`;
  }
}

const LOST = 'Leeway: the upstream connection was lost mid-stream';
const UNTERMINATED: Record<WireFormat, string> = {
  anthropic: 'Leeway: the upstream stream ended without message_stop; the answer is incomplete',
  openai: 'Leeway: the upstream stream ended without [DONE]; the answer is incomplete',
  responses: 'Leeway: the upstream stream ended without response.completed; the answer is incomplete',
};

function tooSlow(decision: StreamCut): string {
  return `Leeway: the upstream produced ${decision.bytesPerSecond.toFixed(1)} useful bytes/s over the last ${decision.windowMs / 1000} s; the stream was cut and the answer is incomplete`;
}

function ignore(): void {}

/**
 * Sends an upstream answer to the client byte for byte, starting with what was held before the
 * commit, with backpressure both ways: the upstream is paused while the client's socket is full.
 * A stream is checked for its terminal event at the end. Abort is driven by the caller's signal.
 */
export function relayResponse(res: ServerResponse, input: RelayInput): Promise<RelayOutcome> {
  const { upstream, start, tap, format, watch } = input;
  const isSse = headerValue(upstream.headers['content-type'])?.includes('text/event-stream') ?? false;
  const ttfbMs = start.firstByteAt === null ? null : start.firstByteAt - input.startedAt;
  if (res.destroyed) {
    // The client left while the answer's start was read: its 'close' has fired already, so stop here.
    upstream.body.destroy();
    return Promise.resolve({
      complete: false,
      clientGone: true,
      ttfbMs,
      usage: start.usage ?? tap.finish(),
      errorCode: 'client_closed',
    });
  }
  // Headers may already be out: a keep-alive stream opened while the request waited in the lane.
  if (!res.headersSent)
    res.writeHead(upstream.statusCode, clientHeaderList(upstream.headers, input.headers, input.secrets));
  // The stream's observers, composed once: the usage tap and the watchdog read the upstream's reads
  // (they saw the held ones before the commit); the scrubber masks the connection's credentials
  // (issue 21 §5: an upstream that echoes its key mid-stream); the keeper reads what the client got.
  const list: ChunkObserver[] = watch ? [tap, watchObserver(watch)] : [tap];
  const clientSide = list.length;
  const scrub = createSecretScrubber(input.secrets);
  if (scrub) list.push(scrub);
  // Only the head of the newest event block is kept, enough to read how the stream ended.
  const ends = isSse ? createStreamEndKeeper(format) : null;
  if (ends) list.push(ends);
  const observers = chainObservers(list);

  if (start.ended) {
    // The whole body was held and checked: one write, and its usage is already known.
    return new Promise((resolve) => {
      const lastAt = start.chunks.length - 1;
      for (let i = 0; i < lastAt; i++) {
        const chunk = start.chunks[i];
        const out = chunk ? observers.onChunk(chunk, clientSide) : null;
        if (out) res.write(out);
      }
      let last = start.chunks[lastAt];
      if (last) {
        const out = observers.onChunk(last, clientSide);
        const rest = observers.onEnd();
        last = out && rest ? Buffer.concat([out, rest]) : (out ?? rest ?? undefined);
      }
      // Settled once: a second resolve() is a no-op for the promise but still a trip into Node's
      // promise hooks, and 'close' follows the end callback on every kept-alive response.
      let settled = false;
      const done = (complete: boolean) => {
        if (settled) return;
        settled = true;
        res.off('close', onClose);
        resolve({
          complete,
          clientGone: !complete,
          ttfbMs,
          usage: start.usage ?? tap.finish(),
          errorCode: complete ? null : 'client_closed',
        });
      };
      const onClose = () => done(res.writableFinished);
      res.once('close', onClose);
      res.end(last, () => done(true));
    });
  }

  const trailer = input.trailer ?? '';

  return new Promise((resolve) => {
    const body = upstream.body;
    let settled = false;
    const settle = (complete: boolean, errorCode: RelayOutcome['errorCode']) => {
      if (settled) return;
      settled = true;
      res.off('close', onClose);
      resolve({ complete, clientGone: errorCode === 'client_closed', ttfbMs, usage: tap.finish(), errorCode });
    };
    const onDrain = () => body.resume();
    const onClose = () => {
      if (!res.writableFinished) {
        // The client left: stop reading so undici closes the upstream socket at once.
        body.destroy();
        settle(false, 'client_closed');
      }
    };
    const send = (chunk: Buffer | null) => {
      if (chunk === null) return;
      if (!res.write(chunk)) {
        body.pause();
        res.once('drain', onDrain);
      }
    };
    res.on('close', onClose);
    for (const chunk of start.chunks) send(observers.onChunk(chunk, clientSide));
    const onData = (chunk: Buffer) => {
      send(observers.onChunk(chunk));
      const verdict = observers.cut;
      if (verdict !== null) cut(verdict);
    };
    body.on('data', onData);
    const onEnd = () => {
      const rest = observers.onEnd();
      if (rest) res.write(rest);
      const end = ends ? ends.end() : 'terminal';
      if (end === 'missing')
        return res.end(`${trailer}${streamErrorFrame(format, UNTERMINATED[format], 'upstream_invalid_response')}`, () =>
          settle(false, 'upstream_invalid_response'),
        );
      if (trailer !== '') res.write(trailer);
      res.end(() => settle(true, end === 'error' ? 'upstream_stream_error' : null));
    };
    const onError = (error: unknown) => {
      if (res.destroyed) return settle(false, 'client_closed');
      if (error instanceof TranslationFailure) {
        // The bridge gave up on the upstream's answer (an event past its cap): say so, not "lost".
        const message = `Leeway: ${error.message}; the answer is incomplete`;
        return res.end(`${trailer}${streamErrorFrame(format, message, 'upstream_invalid_response')}`, () =>
          settle(false, 'upstream_invalid_response'),
        );
      }
      // Issue 21 §9: the request's signal ended it (the shutdown grace ran out), not the upstream.
      const [message, code] = isShuttingDown(error)
        ? [error.message, 'shutdown' as const]
        : [LOST, 'upstream_stream_error' as const];
      if (isSse) {
        res.end(`${trailer}${streamErrorFrame(format, message, code)}`, () => settle(false, code));
      } else {
        // A truncated JSON body must not look complete: cut the connection.
        res.destroy();
        settle(false, code);
      }
    };
    /** WATCH-6/7: after commit the stream is never replayed; an honest error event ends it, settled once. */
    const cut = (verdict: StreamCut) => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
      body.on('error', ignore);
      body.destroy(); // cancels the upstream request: only this attempt ends
      if (res.destroyed) return settle(false, 'client_closed');
      res.end(`${trailer}${streamErrorFrame(format, tooSlow(verdict), 'upstream_too_slow')}`, () =>
        settle(false, 'upstream_too_slow'),
      );
    };
    body.on('end', onEnd);
    body.on('error', onError);
    // A body whose last bytes came with the held ones may have ended (or failed) before these listeners.
    if (body.readableEnded) onEnd();
    else if (body.errored) onError(body.errored);
    // Held at the commit; a full client socket resumes it on drain instead.
    else if (!res.writableNeedDrain) body.resume();
  });
}
