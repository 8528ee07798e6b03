import type { UpstreamOperation } from '../../kernel/provider-adapter';

/**
 * Whether an upstream status is this connection's problem (so the next target may serve) rather
 * than the request's (which every target would refuse alike). The resilience engine refines this.
 */
export function isFailoverStatus(status: number, operation: UpstreamOperation): boolean {
  if (status === 404) return operation !== 'count_tokens';
  return status === 401 || status === 402 || status === 403 || status === 408 || status === 429 || status >= 500;
}

/** count_tokens is optional upstream: a 404 there means "not offered here", not a failure. */
export function isUnsupported(status: number, operation: UpstreamOperation): boolean {
  return operation === 'count_tokens' && (status === 404 || status === 405);
}

/** `name=429, other=timeout` — the value of `x-leeway-failover`. */
export function formatFailoverHeader(
  hops: readonly { connection: string; status: number | null; reason: string }[],
): string {
  return hops.map((h) => `${h.connection}=${h.status ?? h.reason}`).join(', ');
}
