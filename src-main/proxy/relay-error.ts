import type { ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import { buildClientHeaders } from './upstream-headers';

/**
 * Relays an upstream error answer the proxy already read: the upstream's body unchanged, its
 * status (or the restated one), and Retry-After added when the upstream gave none but we know it.
 */
export function relayErrorResponse(
  res: ServerResponse,
  upstream: Dispatcher.ResponseData,
  body: Buffer,
  status: number,
  retryAfterMs: number | null,
  extraHeaders: Record<string, string>,
): void {
  const headers = buildClientHeaders(upstream.headers, extraHeaders);
  headers['content-length'] = body.length;
  if (headers['retry-after'] === undefined && retryAfterMs !== null && retryAfterMs > 0) {
    headers['retry-after'] = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  }
  res.writeHead(status, headers);
  res.end(body);
}
