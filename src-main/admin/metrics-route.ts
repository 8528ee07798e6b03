import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MetricsText } from '../observability/metrics';
import type { TokenCheck } from './auth';
import { refuseCrossSite } from './cross-site-guard';
import { BASE_HEADERS, sendError } from './http-replies';

/** The Prometheus scrape path on the admin door. */
export const METRICS_PATH = '/metrics';

/**
 * `GET /metrics` (issue 13 §2): Prometheus text, behind the admin token like `/api/*` (Bearer for a
 * scraper, the cookie for a browser tab); 401 without it. Reading it changes nothing.
 */
export async function handleMetrics(
  req: IncomingMessage,
  res: ServerResponse,
  auth: TokenCheck,
  metrics: () => Promise<MetricsText>,
): Promise<void> {
  req.resume();
  if (!auth.isAuthorized(req)) {
    return sendError(
      res,
      { code: 'unauthorized', message: 'Missing or wrong admin token' },
      { 'www-authenticate': 'Bearer' },
    );
  }
  // Same rule as /api/*: a cookie sent by a page on another origin proves nothing.
  const refused = refuseCrossSite(req, auth);
  if (refused) return sendError(res, refused);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return sendError(res, { code: 'method_not_allowed', message: 'Use GET for /metrics' }, { allow: 'GET' });
  }
  const text = await metrics();
  if (res.headersSent || res.destroyed) return;
  res.writeHead(200, {
    ...BASE_HEADERS,
    'content-type': text.contentType,
    'content-length': String(Buffer.byteLength(text.body)),
  });
  res.end(req.method === 'HEAD' ? undefined : text.body);
}
