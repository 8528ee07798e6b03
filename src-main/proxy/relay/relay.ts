import type { ServerResponse } from 'node:http';
import type { ChunkWatch } from '../../resilience/watchdog/stream-watchdog';
import type { AnswerStart } from './answer-start';
import type { WireFormat } from '../../../src-shared/domain/connection';
import { headerValue } from '../wire/header-value';
import type { UpstreamAnswer } from '../../kernel/upstream-answer';
import { clientHeaderList } from './upstream-headers';
import type { Usage, UsageTap } from '../wire/usage-tap';
import { relayObservers } from './relay-observers';
import { relayHeld } from './relay-held';
import { StreamRelay } from './relay-stream';
import { streamErrorFrame } from './stream-error';

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

/**
 * Sends an upstream answer to the client byte for byte, starting with what was held before the
 * commit, with backpressure both ways (relay-stream.ts); a body held whole is written at once
 * (relay-held.ts). A stream is checked for its terminal event at the end. Abort is driven by the
 * caller's signal.
 */
export function relayResponse(res: ServerResponse, input: RelayInput): Promise<RelayOutcome> {
  const { upstream, start, tap } = input;
  const ttfbMs = start.firstByteAt === null ? null : start.firstByteAt - input.startedAt;
  if (res.destroyed) {
    // The client left while the answer's start was read: its 'close' has fired already, so stop here.
    upstream.body.destroy();
    const usage = start.usage ?? tap.finish();
    return Promise.resolve({ complete: false, clientGone: true, ttfbMs, usage, errorCode: 'client_closed' });
  }
  // Headers may already be out: a keep-alive stream opened while the request waited in the lane.
  if (!res.headersSent)
    res.writeHead(upstream.statusCode, clientHeaderList(upstream.headers, input.headers, input.secrets));
  const isSse = headerValue(upstream.headers['content-type'])?.includes('text/event-stream') ?? false;
  const observers = relayObservers(input, isSse);
  if (start.ended) return relayHeld(res, input, observers, ttfbMs);
  return new StreamRelay(res, input, observers, ttfbMs, isSse).run();
}
