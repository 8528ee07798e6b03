import type { ApiFormat, WireFormat } from '../../src-shared/domain/connection';
import type { UpstreamOperation } from '../providers/adapter';
import { quoteUserText } from './quote-user-text';

/** A proxied operation: which API format it speaks and what it maps to upstream. */
export interface ModelEndpoint {
  kind: 'model';
  name: 'messages' | 'count_tokens' | 'chat_completions' | 'responses';
  /** The error envelope family (Responses clients read OpenAI's). */
  format: ApiFormat;
  /** What the client speaks on the wire: routing and translation decide by it. */
  wire: WireFormat;
  operation: UpstreamOperation;
}

export type ProxyEndpoint = ModelEndpoint | { kind: 'models' } | { kind: 'health' } | { kind: 'session-leases' };

export type EndpointMatch =
  { kind: 'matched'; endpoint: ProxyEndpoint } | { kind: 'wrong_method'; allowed: string } | { kind: 'not_proxy' };

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
  // Some OpenAI clients are configured with the bare origin as base and drop the /v1.
  ['/chat/completions', { method: 'POST', endpoint: CHAT }],
  ['/v1/responses', { method: 'POST', endpoint: RESPONSES }],
  ['/responses', { method: 'POST', endpoint: RESPONSES }],
  ['/v1/models', { method: 'GET', endpoint: { kind: 'models' } }],
  ['/health', { method: 'GET', endpoint: { kind: 'health' } }],
]);

/** Path (without query) and method → endpoint; see `isProxyNamespace` for unmatched /v1 paths. */
export function matchEndpoint(method: string, pathname: string): EndpointMatch {
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
  return ROUTES.has(pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);
}

/**
 * Issue 13 §6: `ANTHROPIC_BASE_URL=http://127.0.0.1:7431/v1` makes Claude Code (and the Anthropic
 * SDKs) call `/v1/v1/messages`. Leeway serves such a path as `/v1/…` rather than answer 404, and
 * says so: the `x-leeway-warning` header on the answer and a log line (at most one per window).
 */
export const DOUBLED_V1_WARNING =
  'base URL ends in /v1, so requests arrive as /v1/v1/...: drop the /v1 (ANTHROPIC_BASE_URL=http://127.0.0.1:<port>), the client adds it';

/** The path with a doubled `/v1/v1` prefix made `/v1` again; null when it is not doubled. */
export function undoubleV1(pathname: string): string | null {
  return pathname === '/v1/v1' || pathname.startsWith('/v1/v1/') ? pathname.slice(3) : null;
}

const DOUBLED_V1_LOG_WINDOW_MS = 10 * 60_000;
const lastDoubledLog = new WeakMap<object, number>();

/** The operator's line for a doubled `/v1`, once per window per proxy (keyed by its context). */
export function logDoubledV1(owner: object, log: (line: string) => void, pathname: string, now: number): void {
  const last = lastDoubledLog.get(owner);
  if (last !== undefined && now - last < DOUBLED_V1_LOG_WINDOW_MS) return;
  lastDoubledLog.set(owner, now);
  log(`Leeway: served ${quoteUserText(pathname)} as /v1/…: a client's ${DOUBLED_V1_WARNING}`);
}
