import type { IncomingMessage } from 'node:http';
import type { AppError } from '../../src-shared/contract/errors';
import { readBearer, type TokenCheck } from './auth';
import { isJsonContentType } from './read-json-body';

const MUTATING: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** `sec-fetch-site` values a browser sends for requests a page on another origin started. */
const FOREIGN_FETCH_SITES: ReadonlySet<string> = new Set(['cross-site', 'same-site']);

const first = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** The origin this door is served on, as the browser names it: the door speaks plain HTTP on the request's Host. */
export function doorOrigin(req: IncomingMessage): string | null {
  const host = first(req.headers.host)?.trim().toLowerCase();
  return host ? `http://${host}` : null;
}

/** True when the request carries a body (declared length above zero, or chunked). */
function hasBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = Number(req.headers['content-length'] ?? '0');
  return !Number.isFinite(length) || length > 0;
}

/**
 * CSRF guard for every `/api/*` request once its token is known good, REST and RPC alike.
 * Pages on other localhost ports are "same-site", so the SameSite cookie alone proves nothing:
 * a state-changing request's body must be JSON (415 otherwise: no form or text/plain post passes),
 * and a cookie-authenticated request must come from the door's own origin (403 otherwise).
 * A Bearer token is no ambient credential (a page cannot attach it), so it needs no Origin.
 */
export function refuseCrossSite(req: IncomingMessage, auth: TokenCheck): AppError | null {
  const mutating = MUTATING.has(req.method ?? 'GET');
  // A bodyless call has nothing to smuggle; the origin rule below still applies to it.
  if (mutating && hasBody(req) && !isJsonContentType(first(req.headers['content-type']))) {
    return { code: 'unsupported_media_type', message: 'Content-Type must be application/json' };
  }
  if (auth.matches(readBearer(first(req.headers.authorization)))) return null;
  const site = first(req.headers['sec-fetch-site'])?.toLowerCase();
  if (site !== undefined && FOREIGN_FETCH_SITES.has(site)) return foreign();
  const origin = first(req.headers.origin);
  if (origin === undefined) {
    return mutating
      ? { code: 'forbidden', message: 'A state-changing admin request needs the dashboard Origin or a Bearer token' }
      : null;
  }
  return origin.toLowerCase() === doorOrigin(req) ? null : foreign();
}

const foreign = (): AppError => ({ code: 'forbidden', message: 'Admin requests from other origins are refused' });
