import type { ServerResponse } from 'node:http';
import type { AppError } from '../../src-shared/contract/errors';
import { statusOf } from '../../src-shared/contract/errors';

/** Headers every admin answer carries: nothing here is cacheable or meant to be framed. */
export const BASE_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
} as const;

/** CSP for the small server-made pages; the built renderer brings its own meta CSP. */
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

/** Writes a JSON answer unless the client is already gone. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...BASE_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/** Answers a refusal in the contract's Result shape, with the status the error maps to. */
export function sendError(res: ServerResponse, error: AppError, headers: Record<string, string> = {}): void {
  sendJson(res, statusOf(error), { ok: false, error }, headers);
}

/** Writes one of the server's own small HTML pages. */
export function sendPage(
  res: ServerResponse,
  status: number,
  html: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, {
    ...BASE_HEADERS,
    'content-security-policy': PAGE_CSP,
    'content-type': 'text/html; charset=utf-8',
    'content-length': String(Buffer.byteLength(html)),
    ...headers,
  });
  res.end(html);
}

/**
 * A path nothing serves: JSON like every other refusal of Leeway's (issue 21 §7), so a client that
 * reached the wrong path reads why; a browser tab shows it as text.
 */
export function sendNotFound(res: ServerResponse, method: string, pathname: string): void {
  sendError(res, { code: 'not_found', message: `No route for ${method} ${pathname}` });
}
