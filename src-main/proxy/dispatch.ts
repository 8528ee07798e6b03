import type { IncomingHttpHeaders } from 'node:http';
import { errors, type Dispatcher } from 'undici';
import type { UpstreamOperation } from '../providers/adapter';
import type { UpstreamPools } from '../providers/upstream-pools';
import type { Target } from '../routing/resolve-targets';
import { buildUpstreamHeaders } from './upstream-headers';

export type DispatchResult =
  | { kind: 'response'; response: Dispatcher.ResponseData }
  | { kind: 'failed'; reason: 'timeout' | 'unreachable' | 'aborted' | 'unsupported' };

export interface DispatchRequest {
  target: Target;
  operation: UpstreamOperation;
  search: string;
  clientHeaders: IncomingHttpHeaders;
  body: Buffer;
  signal: AbortSignal;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
}

/** Sends one request to one target and waits for its response headers; never throws. */
export async function dispatchToTarget(pools: UpstreamPools, request: DispatchRequest): Promise<DispatchResult> {
  const { target } = request;
  const path = target.connection.adapter.pathFor(request.operation);
  if (path === null) return { kind: 'failed', reason: 'unsupported' };
  try {
    const response = await pools.forOrigin(target.connection.origin).request({
      method: 'POST',
      path: target.connection.basePath + path + request.search,
      headers: buildUpstreamHeaders(request.clientHeaders, target.connection),
      body: request.body,
      signal: request.signal,
      headersTimeout: request.headersTimeoutMs,
      bodyTimeout: request.bodyTimeoutMs,
    });
    return { kind: 'response', response };
  } catch (error) {
    if (request.signal.aborted) return { kind: 'failed', reason: 'aborted' };
    if (error instanceof errors.HeadersTimeoutError || error instanceof errors.ConnectTimeoutError) {
      return { kind: 'failed', reason: 'timeout' };
    }
    return { kind: 'failed', reason: 'unreachable' };
  }
}
