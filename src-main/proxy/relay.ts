import type { ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import type { ClientFormat } from './client-errors';
import { buildClientHeaders } from './upstream-headers';
import { createUsageTap, type Usage } from './usage-tap';

export interface RelayOutcome {
  /** True when every byte reached the client and the response ended normally. */
  complete: boolean;
  clientGone: boolean;
  ttfbMs: number | null;
  usage: Usage;
}

/** Ends an already-started SSE response with an error event the client can parse. */
export function endStreamWithError(res: ServerResponse, format: ClientFormat, message: string): void {
  if (res.destroyed || res.writableEnded) return;
  res.end(streamErrorFrame(format, message));
}

/** The last words of a stream that broke after the client already had bytes: an error event it can parse. */
function streamErrorFrame(format: ClientFormat, message = 'Headroom: the upstream connection was lost mid-stream'): string {
  return format === 'anthropic'
    ? `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'api_error', message } })}\n\n`
    : `data: ${JSON.stringify({ error: { message, type: 'server_error', code: 'upstream_stream_error' } })}\n\n`;
}

/**
 * Sends an upstream response to the client byte for byte, with backpressure both ways: the
 * upstream is paused while the client's socket is full. Abort is driven by the caller's signal.
 */
export function relayResponse(
  res: ServerResponse,
  upstream: Dispatcher.ResponseData,
  extraHeaders: Record<string, string>,
  format: ClientFormat,
  startedAt: number,
  now: () => number,
): Promise<RelayOutcome> {
  const contentType = headerValue(upstream.headers['content-type']);
  const tap = createUsageTap(contentType);
  const isSse = contentType?.includes('text/event-stream') ?? false;
  // Headers may already be out: a keep-alive stream opened while the request waited in the lane.
  if (!res.headersSent) {
    res.writeHead(upstream.statusCode, buildClientHeaders(upstream.headers, extraHeaders));
    // From here on failover is no longer possible. A stream's headers go out at once so the client
    // sees the answer start; a JSON body's go out with its first bytes, in one write (cheaper).
    if (isSse) res.flushHeaders();
  }
  let ttfbMs: number | null = null;

  return new Promise((resolve) => {
    const body = upstream.body;
    let settled = false;
    const settle = (complete: boolean, clientGone = false) => {
      if (settled) return;
      settled = true;
      res.off('close', onClose);
      resolve({ complete, clientGone, ttfbMs, usage: tap.finish() });
    };
    const onDrain = () => body.resume();
    const onClose = () => {
      if (!res.writableFinished) {
        // The client left: stop reading so undici closes the upstream socket at once.
        body.destroy();
        settle(false, true);
      }
    };
    res.on('close', onClose);
    body.on('data', (chunk: Buffer) => {
      if (ttfbMs === null) ttfbMs = now() - startedAt;
      tap.push(chunk);
      if (!res.write(chunk)) {
        body.pause();
        res.once('drain', onDrain);
      }
    });
    body.on('end', () => {
      res.end(() => settle(true));
    });
    body.on('error', () => {
      if (res.destroyed) return settle(false, true);
      if (isSse) {
        res.end(streamErrorFrame(format), () => settle(false));
      } else {
        // A truncated JSON body must not look complete: cut the connection.
        res.destroy();
        settle(false);
      }
    });
  });
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
