import type { ApiFormat, WireFormat } from '../../../src-shared/domain/connection';
import type { UpstreamOperation } from '../../kernel/provider-adapter';
import type { AppError } from '../../../src-shared/contract/errors';
import { GEMINI_PREFIX, matchGeminiEndpoint } from './gemini-endpoints';
import { quoteUserText } from './quote-user-text';

/** A proxied operation: which API format it speaks and what it maps to upstream. */
export interface ModelEndpoint {
  kind: 'model';
  name: 'messages' | 'count_tokens' | 'chat_completions' | 'responses' | 'generate_content' | 'stream_generate_content';
  /** The error envelope family (Responses clients read OpenAI's). */
  format: ApiFormat;
  /** What the client speaks on the wire: routing and translation decide by it. */
  wire: WireFormat;
  operation: UpstreamOperation;
  /** A Gemini call's model, named by its URL (gemini-endpoints.ts); other bodies name theirs. */
  urlModel?: string;
}

export type ProxyEndpoint =
  | ModelEndpoint
  | { kind: 'models' }
  | { kind: 'health' }
  | { kind: 'session-leases' }
  | { kind: 'gemini-models'; model: string | null }
  | { kind: 'gemini-count'; model: string };

export type EndpointMatch =
  | { kind: 'matched'; endpoint: ProxyEndpoint }
  | { kind: 'wrong_method'; allowed: string }
  | { kind: 'not_proxy' }
  /** A Gemini path Google would refuse (unknown method, bad model name), in Google's words. */
  | { kind: 'refused'; error: AppError };

const MESSAGES: ModelEndpoint = {
  kind: 'model',
  name: 'messages',
  format: 'anthropic',
  wire: 'anthropic',
  operation: 'messages',
};
const COUNT: ModelEndpoint = {
  kind: 'model',
  name: 'count_tokens',
  format: 'anthropic',
  wire: 'anthropic',
  operation: 'count_tokens',
};
const CHAT: ModelEndpoint = {
  kind: 'model',
  name: 'chat_completions',
  format: 'openai',
  wire: 'openai',
  operation: 'chat_completions',
};
/** The OpenAI Responses API (the codex CLI): native on OpenAI, translated elsewhere (issue 12). */
const RESPONSES: ModelEndpoint = {
  kind: 'model',
  name: 'responses',
  format: 'openai',
  wire: 'responses',
  operation: 'responses',
};

const ROUTES: ReadonlyMap<string, { method: string; endpoint: ProxyEndpoint }> = new Map([
  ['/v1/messages', { method: 'POST', endpoint: MESSAGES }],
  ['/v1/messages/count_tokens', { method: 'POST', endpoint: COUNT }],
  ['/v1/chat/completions', { method: 'POST', endpoint: CHAT }],
  ['/v1/responses', { method: 'POST', endpoint: RESPONSES }],
  ['/v1/models', { method: 'GET', endpoint: { kind: 'models' } }],
  ['/health', { method: 'GET', endpoint: { kind: 'health' } }],
]);

/** Path (without query) and method → endpoint; see `isProxyNamespace` for unmatched /v1 paths. */
export function matchEndpoint(method: string, pathname: string): EndpointMatch {
  if (pathname.startsWith(`${GEMINI_PREFIX}/`)) {
    const gemini = matchGeminiEndpoint(method, pathname);
    if (gemini.kind === 'wrong_method' || gemini.kind === 'refused') return gemini;
    return { kind: 'matched', endpoint: gemini.kind === 'model' ? gemini.endpoint : gemini };
  }
  const route = ROUTES.get(pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);
  if (route) {
    return route.method === method || (method === 'HEAD' && route.method === 'GET')
      ? { kind: 'matched', endpoint: route.endpoint }
      : { kind: 'wrong_method', allowed: route.method };
  }
  return { kind: 'not_proxy' };
}

/** Whether an unmatched path belongs to the proxy namespace (answered 404 in client format). */
export function isProxyNamespace(pathname: string): boolean {
  if (pathname === '/v1' || pathname.startsWith('/v1/')) return true;
  if (pathname === GEMINI_PREFIX || pathname.startsWith(`${GEMINI_PREFIX}/`)) return true;
  return ROUTES.has(pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);
}

/**
 * Issue 13 §6: `ANTHROPIC_BASE_URL=http://127.0.0.1:7431/v1` makes Claude Code (and the Anthropic
 * SDKs) call `/v1/v1/messages`. Leeway serves such a path as `/v1/…` rather than answer 404, and
 * says so: the `x-leeway-warning` header on the answer and a log line (at most one per window).
 */
export const DOUBLED_V1_WARNING =
  'base URL ends in /v1, so requests arrive as /v1/v1/...: drop the /v1 (ANTHROPIC_BASE_URL=http://127.0.0.1:<port>), the client adds it';

/**
 * Issue 21 §15: opencode and Kilo append `/messages` to the base URL they are given, as some OpenAI
 * clients append `/chat/completions` or `/models`; with the bare origin as base the `/v1` is
 * missing. These paths are served as `/v1/…` with a warning like the doubled one. None of them is
 * a path of the admin door (`/api/…`, `/metrics`) or a file of the dashboard (`/`, `/assets/…`).
 */
const BARE_API_PATHS: ReadonlySet<string> = new Set([
  '/messages',
  '/messages/count_tokens',
  '/chat/completions',
  '/responses',
  '/models',
]);

export const MISSING_V1_WARNING =
  'base URL lacks /v1, so requests arrive as /messages, /chat/completions ...: end the base URL in /v1 (http://127.0.0.1:<port>/v1) for this client';

/** Which path repair a request needs: a doubled `/v1/v1` or a missing `/v1`; null for none. */
export type V1Repair = 'doubled' | 'missing';

/** The repair a path needs, if any (no allocation on the common path). */
export function v1RepairOf(pathname: string): V1Repair | null {
  if (pathname.startsWith('/v1')) return pathname === '/v1/v1' || pathname.startsWith('/v1/v1/') ? 'doubled' : null;
  if (pathname.startsWith('/api/')) return null;
  const bare = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return BARE_API_PATHS.has(bare) ? 'missing' : null;
}

/** The path served for a repaired one: `/v1/v1/x` → `/v1/x`, `/x` → `/v1/x`. */
export function repairedPath(pathname: string, repair: V1Repair): string {
  return repair === 'doubled' ? pathname.slice(3) : `/v1${pathname}`;
}

const V1_LOG_WINDOW_MS = 10 * 60_000;
const lastV1Log: Record<V1Repair, WeakMap<object, number>> = { doubled: new WeakMap(), missing: new WeakMap() };

/** The warning header for a repaired path. */
export function v1Warning(repair: V1Repair): string {
  return repair === 'doubled' ? DOUBLED_V1_WARNING : MISSING_V1_WARNING;
}

/** The operator's line for a repaired `/v1`, once per window per proxy (keyed by its context) and kind. */
export function logV1Repair(
  owner: object,
  repair: V1Repair,
  log: (line: string) => void,
  pathname: string,
  now: number,
): void {
  const seen = lastV1Log[repair];
  const last = seen.get(owner);
  if (last !== undefined && now - last < V1_LOG_WINDOW_MS) return;
  seen.set(owner, now);
  const served = repair === 'doubled' ? '/v1/…' : repairedPath(pathname, repair);
  log(`Leeway: served ${quoteUserText(pathname)} as ${served}: a client's ${v1Warning(repair)}`);
}
