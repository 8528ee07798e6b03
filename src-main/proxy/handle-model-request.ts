import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppError } from '../../src-shared/contract/errors';
import type { FailoverHop } from '../../src-shared/domain/request-log';
import { resolveTargets } from '../routing/resolve-targets';
import { sendClientError } from './client-errors';
import { dispatchToTarget } from './dispatch';
import type { ModelEndpoint } from './endpoints';
import { formatFailoverHeader, isFailoverStatus, isUnsupported } from './failover-policy';
import { bodyForModel, parseModelBody } from './parse-model-body';
import type { ProxyContext } from './proxy-context';
import { relayResponse, type RelayOutcome } from './relay';

/** How a request ended, for the activity log; null while it is still running (or the client left). */
interface Served {
  connection: string | null;
  status: number;
  outcome: RelayOutcome | null;
  errorCode: string | null;
}

export interface ModelRequest {
  req: IncomingMessage;
  res: ServerResponse;
  endpoint: ModelEndpoint;
  search: string;
  body: Buffer;
  keyName: string;
  startedAt: number;
}

/** Upstream idle limit while a body streams; long pauses (thinking) are normal, hours are not. */
const BODY_IDLE_MS = 10 * 60_000;

/**
 * One model request: resolve targets, try them in order until one answers with something other
 * than a connection-level failure, then relay that answer. Failover stops at the first byte sent.
 */
export async function handleModelRequest(ctx: ProxyContext, request: ModelRequest): Promise<void> {
  const { res, endpoint } = request;
  const settings = ctx.settings();
  const hops: FailoverHop[] = [];
  let model: string | null = null;
  let stream = false;
  // A holder, not a `let`: it is set inside closures, which TypeScript's narrowing does not follow.
  const ended: { served: Served | null } = { served: null };

  const finishWithError = (error: AppError) => {
    sendClientError(res, endpoint.format, error);
    ended.served = { connection: null, status: res.statusCode, outcome: null, errorCode: error.code };
  };

  const parsed = parseModelBody(request.body);
  if (!parsed.ok) {
    // Malformed input is answered and not logged: nothing is written for a request that never was one.
    sendClientError(res, endpoint.format, parsed.error);
    return;
  }
  try {
    model = parsed.value.model;
    stream = parsed.value.stream;
    if (settings.paused) return finishWithError({ code: 'proxy_paused', message: 'Headroom is paused; resume it from the tray or dashboard', retryAfterMs: 30_000 });

    const resolution = resolveTargets(ctx.catalog(), model, endpoint.format);
    if (resolution.kind === 'unknown_model') {
      const list = resolution.available.slice(0, 50).join(', ') || 'none configured';
      return finishWithError({ code: 'model_not_found', message: `Model "${model}" is not served by any connection. Available: ${list}`, details: { available: resolution.available } });
    }
    if (resolution.targets.length === 0) {
      return finishWithError({ code: 'no_executable_targets', message: `No connection can serve "${model}" right now`, details: { excluded: resolution.excluded } });
    }

    const controller = new AbortController();
    const onClientClose = () => {
      if (!res.writableFinished) controller.abort();
    };
    res.on('close', onClientClose);
    try {
      const targets = resolution.targets;
      for (let i = 0; i < targets.length; i++) {
        const target = targets[i];
        if (!target) continue;
        const isLast = i === targets.length - 1;
        const result = await dispatchToTarget(ctx.pools, {
          target,
          operation: endpoint.operation,
          search: request.search,
          clientHeaders: request.req.headers,
          body: bodyForModel(request.body, parsed.value, target.upstreamModel),
          signal: controller.signal,
          headersTimeoutMs: stream ? settings.streamHeadersTimeoutMs : settings.responseTimeoutMs,
          bodyTimeoutMs: BODY_IDLE_MS,
        });
        const name = target.connection.view.name;
        if (result.kind === 'failed') {
          if (result.reason === 'aborted') return;
          hops.push({ connection: name, status: null, reason: result.reason });
          if (isLast) {
            const timedOut = result.reason === 'timeout';
            return finishWithError({
              code: timedOut ? 'upstream_timeout' : 'upstream_unreachable',
              message: `Every target failed; last: ${name} (${result.reason})`,
              details: { failover: hops },
            });
          }
          continue;
        }
        const status = result.response.statusCode;
        if (!isLast && (isFailoverStatus(status, endpoint.operation) || isUnsupported(status, endpoint.operation))) {
          hops.push({ connection: name, status, reason: isUnsupported(status, endpoint.operation) ? 'unsupported' : 'upstream_status' });
          // Read and drop the refused body so the keep-alive socket goes back to the pool.
          result.response.body.resume();
          result.response.body.on('error', () => undefined);
          continue;
        }
        const extra: Record<string, string> = { 'x-headroom-connection': name };
        if (hops.length > 0) extra['x-headroom-failover'] = formatFailoverHeader(hops);
        const outcome = await relayResponse(res, result.response, extra, endpoint.format, request.startedAt, ctx.now);
        const errorCode = outcome.complete ? null : outcome.clientGone ? 'client_closed' : 'upstream_stream_error';
        ended.served = { connection: name, status, outcome, errorCode };
        return;
      }
    } finally {
      res.off('close', onClientClose);
    }
  } finally {
    const end = ctx.now();
    const s = ended.served;
    const usage = s?.outcome?.usage;
    ctx.record({
      ts: request.startedAt,
      keyName: request.keyName,
      apiFormat: endpoint.format,
      endpoint: endpoint.name,
      model,
      connection: s?.connection ?? null,
      status: s ? s.status : 499,
      stream,
      latencyMs: end - request.startedAt,
      ttfbMs: s?.outcome?.ttfbMs ?? null,
      inputTokens: usage?.inputTokens ?? null,
      outputTokens: usage?.outputTokens ?? null,
      cacheReadTokens: usage?.cacheReadTokens ?? null,
      cacheWriteTokens: usage?.cacheWriteTokens ?? null,
      failover: hops,
      errorCode: s ? s.errorCode : 'client_closed',
    });
  }
}
