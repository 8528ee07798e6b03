import type { IncomingHttpHeaders } from 'node:http';
import { errors, type Dispatcher } from 'undici';
import type { ConnectionSecret } from '../../../src-shared/domain/connection';
import type { UpstreamOperation } from '../../kernel/provider-adapter';
import type { UpstreamPools } from '../../providers/upstream-pools';
import type { Target } from '../../kernel/target';
import { buildUpstreamHeaders } from '../relay/upstream-headers';

export type DispatchResult =
  /** `sentSecret` is the credential this request carried, so an answer echoing it can be redacted. */
  | { kind: 'response'; response: Dispatcher.ResponseData; sentSecret: ConnectionSecret | null }
  | { kind: 'failed'; reason: 'timeout' | 'unreachable' | 'aborted' | 'unsupported' }
  /** The connection's own credential cannot be used (refresh refused: needs_reauth); already recorded. */
  | { kind: 'failed'; reason: 'credential'; message: string };

export interface DispatchRequest {
  target: Target;
  operation: UpstreamOperation;
  search: string;
  clientHeaders: IncomingHttpHeaders;
  body: Buffer;
  signal: AbortSignal;
  headersTimeoutMs: number;
  /** Longest silence between body chunks once the body flows (setting upstreamIdleTimeoutMs). */
  bodyTimeoutMs: number;
  /** A just-refreshed OAuth token, newer than the catalog's copy. */
  secretOverride?: ConnectionSecret;
  /** Headers a provider hook adds (the Claude slow lane), or the version header a translation needs. */
  extraHeaders?: Record<string, string> | undefined;
}

/** Sends one request to one target and waits for its response headers; never throws. */
export async function dispatchToTarget(pools: UpstreamPools, request: DispatchRequest): Promise<DispatchResult> {
  const { target } = request;
  const path = target.connection.adapter.pathFor(request.operation, target.upstreamModel);
  if (path === null) return { kind: 'failed', reason: 'unsupported' };
  const secret = request.secretOverride ?? target.connection.secret;
  try {
    const response = await pools.forOrigin(target.connection.origin, target.connection.outboundProxy).request({
      method: 'POST',
      path: target.connection.basePath + path + request.search,
      headers: buildUpstreamHeaders(request.clientHeaders, target.connection, secret, request.extraHeaders),
      body: request.body,
      signal: request.signal,
      headersTimeout: request.headersTimeoutMs,
      bodyTimeout: request.bodyTimeoutMs,
    });
    return { kind: 'response', response, sentSecret: secret };
  } catch (error) {
    if (request.signal.aborted) return { kind: 'failed', reason: 'aborted' };
    if (error instanceof errors.HeadersTimeoutError || error instanceof errors.ConnectTimeoutError) {
      return { kind: 'failed', reason: 'timeout' };
    }
    return { kind: 'failed', reason: 'unreachable' };
  }
}
