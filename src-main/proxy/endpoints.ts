import type { ApiFormat } from '../../src-shared/domain/connection';
import type { UpstreamOperation } from '../providers/adapter';

/** A proxied operation: which API format it speaks and what it maps to upstream. */
export interface ModelEndpoint {
  kind: 'model';
  name: 'messages' | 'count_tokens' | 'chat_completions';
  format: ApiFormat;
  operation: UpstreamOperation;
}

export type ProxyEndpoint = ModelEndpoint | { kind: 'models' } | { kind: 'health' } | { kind: 'session-leases' };

export type EndpointMatch =
  { kind: 'matched'; endpoint: ProxyEndpoint } | { kind: 'wrong_method'; allowed: string } | { kind: 'not_proxy' };

const MESSAGES: ModelEndpoint = { kind: 'model', name: 'messages', format: 'anthropic', operation: 'messages' };
const COUNT: ModelEndpoint = { kind: 'model', name: 'count_tokens', format: 'anthropic', operation: 'count_tokens' };
const CHAT: ModelEndpoint = {
  kind: 'model',
  name: 'chat_completions',
  format: 'openai',
  operation: 'chat_completions',
};

const ROUTES: ReadonlyMap<string, { method: string; endpoint: ProxyEndpoint }> = new Map([
  ['/v1/messages', { method: 'POST', endpoint: MESSAGES }],
  ['/v1/messages/count_tokens', { method: 'POST', endpoint: COUNT }],
  ['/v1/chat/completions', { method: 'POST', endpoint: CHAT }],
  // Some OpenAI clients are configured with the bare origin as base and drop the /v1.
  ['/chat/completions', { method: 'POST', endpoint: CHAT }],
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
