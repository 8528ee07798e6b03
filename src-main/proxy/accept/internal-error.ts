import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppError } from '../../../src-shared/contract/errors';
import { sendClientError } from '../relay/client-errors';
import { pathnameOf } from '../relay/client-format';
import type { ProxyContext } from '../proxy-context';
import { loggedPath, recordRefusal, type Refusal } from './record-refusal';

/** What a client hears when Leeway itself failed: a typed 500 in its own format, never a silent cut. */
export const INTERNAL_ERROR: AppError = {
  code: 'internal_error',
  message: 'Internal error in Leeway (a bug); the details are in its log',
};

/** A stack is a few hundred bytes; an error message quoting a whole body must not make a huge line. */
const MAX_DETAIL_CHARS = 4_000;

/** The detail cut at a space or line break, so no secret is cut in two (the redactor finds only whole ones). */
function capped(text: string): string {
  if (text.length <= MAX_DETAIL_CHARS) return text;
  const cut = Math.max(text.lastIndexOf(' ', MAX_DETAIL_CHARS), text.lastIndexOf('\n', MAX_DETAIL_CHARS));
  return `${text.slice(0, cut > 0 ? cut : MAX_DETAIL_CHARS)} …`;
}

/**
 * Logs an unexpected throw on the request path with its stack, through the core's logger (which
 * redacts every secret it knows from each line). The request is named by method and path, never
 * its query (it may carry a key).
 */
export function logInternalError(log: (line: string) => void, req: IncomingMessage, error: unknown): void {
  const detail = capped(error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error));
  log(`Leeway: internal error on ${req.method ?? '?'} ${loggedPath(pathnameOf(req.url ?? ''))}: ${detail}`);
}

/**
 * Issue 21 §3: a throw that escaped the request path (only a bug lands here) is logged with its
 * stack, answered as a typed 500 (or the response is cut, if it had begun) and given an activity
 * row saying `internal_error`.
 */
export function answerInternalError(
  ctx: Pick<ProxyContext, 'host' | 'now'>,
  req: IncomingMessage,
  res: ServerResponse,
  refusal: Omit<Refusal, 'error'>,
  error: unknown,
): void {
  logInternalError(ctx.host.log, req, error);
  sendClientError(res, refusal.format, INTERNAL_ERROR);
  recordRefusal(ctx, { ...refusal, error: INTERNAL_ERROR });
}
