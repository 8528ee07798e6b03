import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppError } from '../../src-shared/contract/errors';
import type { TargetExclusion } from '../../src-shared/domain/cooldown';
import type { FailoverHop } from '../../src-shared/domain/request-log';
import { resolveTargets, type Exclusion, type Target } from '../routing/resolve-targets';
import { sendClientError } from './client-errors';
import { quoteUserText } from './quote-user-text';
import { laneWaitDeadline } from '../resilience/claude/lane-constants';
import { readAnswerStart } from './answer-start';
import { attemptTarget } from './claude-attempt';
import { createKeepAlive } from './sse-keepalive';
import type { ModelEndpoint } from './endpoints';
import { exclusionLogFor } from './exclusion-log';
import { formatFailoverHeader } from './failover-policy';
import { bodyForModel, parseModelBody } from './parse-model-body';
import type { ProxyContext } from './proxy-context';
import { ERROR_BODY_CAP, readUpstreamBody } from './read-upstream-body';
import { redactSecrets, secretStrings } from './redact-secrets';
import { endStreamWithError, relayResponse, type RelayOutcome } from './relay';
import { relayErrorResponse } from './relay-error';
import { summarizeUpstreamText } from './upstream-text';
import { createUsageTap } from './usage-tap';
import { earlyFailureError, type EarlyFailure } from './early-failure';
import { headerValue } from './header-value';

export interface ModelRequest {
  req: IncomingMessage;
  res: ServerResponse;
  endpoint: ModelEndpoint;
  search: string;
  body: Buffer;
  keyName: string;
  startedAt: number;
}

/** How a request ended, for the activity log. */
interface Served {
  connection: string | null;
  status: number;
  outcome: RelayOutcome | null;
  errorCode: string | null;
}

function asExclusion(e: Exclusion): TargetExclusion {
  return { connection: e.connection, model: null, reason: e.reason, retryAfterSeconds: null };
}

/** How long a request waits for a busy connection's slot before going ahead anyway (CONC-4). */
const SLOT_WAIT_MS = 30_000;

/**
 * maxConcurrent (CONC-2): a busy connection is passed over while later targets remain; the last
 * one is waited for, within a budget, then used anyway rather than refusing (fail open).
 */
async function takeSlot(ctx: ProxyContext, target: Target, isLast: boolean, signal: AbortSignal): Promise<'held' | 'none' | 'busy' | 'aborted'> {
  const max = target.connection.view.maxConcurrent;
  const id = target.connection.view.id;
  if (max === null) return 'none';
  if (ctx.slots.tryAcquire(id, max)) return 'held';
  if (!isLast) return 'busy';
  const outcome = await ctx.slots.acquire(id, max, signal, SLOT_WAIT_MS);
  return outcome === 'acquired' ? 'held' : outcome === 'aborted' ? 'aborted' : 'none';
}

/** No target can run: cooling targets give a 503 with the earliest return (ROUTE-6), others a 404 (ROUTE-8). */
function noTargetError(model: string, excluded: TargetExclusion[]): AppError {
  const waits = excluded.map((e) => e.retryAfterSeconds).filter((s): s is number => s !== null);
  if (waits.length > 0) {
    const soonest = Math.min(...waits);
    const reasons = excluded.map((e) => `${e.connection}: ${e.reason}${e.retryAfterSeconds === null ? '' : ` (${e.retryAfterSeconds}s)`}`);
    return {
      code: 'all_targets_cooling_down',
      message: `Every target for ${quoteUserText(model)} is cooling down; the first is back in ${soonest}s. ${reasons.join('; ')}`,
      retryAfterMs: soonest * 1000,
      details: { excluded },
    };
  }
  return { code: 'no_executable_targets', message: `No connection can serve ${quoteUserText(model)} right now`, details: { excluded } };
}

/**
 * One model request: resolve and screen targets, try them in order until one answers with
 * something other than a connection-level failure, then relay that answer. Every attempt is
 * learned from exactly once. Nothing is committed to the client before a stream's first event or
 * a JSON answer's checked body, so a reset, a stall or a malformed 200 before then still fails over.
 */
export async function handleModelRequest(ctx: ProxyContext, request: ModelRequest): Promise<void> {
  const { res, endpoint } = request;
  const parsed = parseModelBody(request.body);
  if (!parsed.ok) {
    // Malformed input is answered and not logged: nothing is written for a request that never was one.
    sendClientError(res, endpoint.format, parsed.error);
    return;
  }
  const { model, stream } = parsed.value;
  const settings = ctx.settings();
  const headersTimeoutMs = stream ? settings.streamHeadersTimeoutMs : settings.responseTimeoutMs;
  // An error body is read whole before deciding, so it gets a deadline of its own (no idle-limit hang).
  const errorBodyTimeoutMs = Math.min(headersTimeoutMs, settings.errorBodyTimeoutMs);
  const hops: FailoverHop[] = [];
  const ended: { served: Served | null } = { served: null };
  let servedVia: string | null = null;
  const keepAlive = createKeepAlive(res);
  const finishWithError = (error: AppError) => {
    // A client already holding a keep-alive stream can only be told in an SSE event, never by a cut socket.
    if (keepAlive.committed) endStreamWithError(res, endpoint.format, error.message, error.code);
    else sendClientError(res, endpoint.format, error);
    ended.served = { connection: null, status: res.statusCode, outcome: null, errorCode: error.code };
  };

  try {
    if (settings.paused) return finishWithError({ code: 'proxy_paused', message: 'Headroom is paused; resume it from the tray or dashboard', retryAfterMs: 30_000 });
    const resolution = resolveTargets(ctx.catalog(), model, endpoint.format);
    if (resolution.kind === 'unknown_model') {
      const list = resolution.available.slice(0, 50).join(', ') || 'none configured';
      return finishWithError({ code: 'model_not_found', message: `Model ${quoteUserText(model)} is not served by any connection. Available: ${list}`, details: { available: resolution.available } });
    }
    const screened = ctx.resilience.screen(resolution.targets, ctx.now());
    const excluded = [...resolution.excluded.map(asExclusion), ...screened.excluded];
    if (screened.runnable.length === 0) {
      const error = noTargetError(model, excluded);
      if (error.code === 'all_targets_cooling_down') {
        // ROUTE-7: the operator's log names every reason and how long it has left, once per model per window.
        const parts = excluded.map((e) => `${e.connection}=${e.reason}${e.retryAfterSeconds === null ? '' : `:${e.retryAfterSeconds}s`}`);
        exclusionLogFor(ctx, ctx.log).report(model, resolution.via === 'combo', parts, ctx.now());
      }
      return finishWithError(error);
    }

    const controller = new AbortController();
    // LOWP-9: lane waits end gracefully before the request's own start budget would abort them.
    const laneDeadline = laneWaitDeadline(request.startedAt, settings.responseTimeoutMs);
    const onClientClose = () => {
      if (!res.writableFinished) controller.abort();
    };
    res.on('close', onClientClose);
    // The socket may have gone before we subscribed (a pipelined request behind a closed one): 'close' will not come again.
    if (res.destroyed) controller.abort();
    try {
      const targets = screened.runnable;
      for (let i = 0; i < targets.length; i++) {
        const target = targets[i];
        if (!target) continue;
        const name = target.connection.view.name;
        const isLastTarget = i === targets.length - 1;
        const slot = await takeSlot(ctx, target, isLastTarget, controller.signal);
        if (slot === 'aborted') return;
        if (slot === 'busy') {
          excluded.push({ connection: name, model: target.upstreamModel, reason: 'busy', retryAfterSeconds: null });
          continue;
        }
        const admitted = ctx.resilience.admit(target, ctx.now());
        if (!admitted.ok) {
          if (slot === 'held') ctx.slots.release(target.connection.view.id);
          excluded.push(admitted.exclusion);
          if (i === targets.length - 1 && hops.length === 0) return finishWithError(noTargetError(model, excluded));
          continue;
        }
        try {
          const isLast = i === targets.length - 1;
          /** Learns an early failure once; true when the request is over (answered), false to try the next target. */
          const failedEarly = (failure: EarlyFailure, detail: string | null): boolean => {
            const verdict = ctx.resilience.learnFailure(target, admitted.admission, endpoint.operation, { kind: 'transport', failure }, ctx.now());
            hops.push({ connection: name, status: null, reason: failure === 'empty_response' ? 'invalid_response' : failure });
            if (!isLast && verdict.shouldFailover && !keepAlive.committed) return false;
            finishWithError(earlyFailureError(name, failure, detail, hops));
            return true;
          };
          const result = await attemptTarget(
            ctx.pools,
            ctx.claude,
            {
              target,
              operation: endpoint.operation,
              search: request.search,
              clientHeaders: request.req.headers,
              body: bodyForModel(request.body, parsed.value, target.upstreamModel),
              signal: controller.signal,
              headersTimeoutMs,
              bodyTimeoutMs: settings.upstreamIdleTimeoutMs,
            },
            { deadlineMs: laneDeadline, stream, keepAlive, keepAliveHeaders: { 'x-headroom-connection': name } },
          );
          servedVia = result.via;
          if (result.kind === 'failed') {
            if (result.reason === 'aborted') return; // the client left: nothing to learn about the upstream
            if (result.reason === 'unsupported') continue;
            if (result.reason === 'credential') {
              // A dead login is already recorded (needs_reauth) by the token manager; a refresh that
              // failed for now (token endpoint down) is not. Either way the next target may serve.
              hops.push({ connection: name, status: null, reason: result.credentialReason ?? 'needs_reauth' });
              const message = redactSecrets(`${name}: ${result.message}`, secretStrings(target.connection.secret));
              if (isLast || keepAlive.committed) return finishWithError({ code: 'upstream_error', message, status: 502, details: { failover: hops } });
              continue;
            }
            if (failedEarly(result.reason, null)) return;
            continue;
          }
          const upstream = result.response;
          const extra: Record<string, string> = { 'x-headroom-connection': name };
          if (upstream.statusCode >= 200 && upstream.statusCode < 300) {
            // Nothing is committed to the client until the answer has really begun (and, for JSON, parses).
            const contentType = headerValue(upstream.headers['content-type']);
            const tap = createUsageTap(contentType);
            const sse = contentType?.includes('text/event-stream') ? endpoint.format : null;
            const start = await readAnswerStart(upstream, sse, tap, controller.signal, ctx.now);
            if (start.kind === 'aborted') return;
            if (start.kind === 'failed') {
              if (failedEarly(start.failure, start.detail)) return;
              continue;
            }
            if (start.kind === 'stream_error') {
              const bodyText = redactSecrets(start.bodyText, secretStrings(target.connection.secret, result.sentSecret));
              const outcome = { kind: 'response', status: start.status, headers: upstream.headers, bodyText } as const;
              const verdict = ctx.resilience.learnFailure(target, admitted.admission, endpoint.operation, outcome, ctx.now());
              if (!isLast && verdict.shouldFailover && !keepAlive.committed) {
                upstream.body.destroy();
                hops.push({ connection: name, status: start.status, reason: verdict.reason });
                continue;
              }
            } else {
              ctx.resilience.learnSuccess(target, admitted.admission, ctx.now());
            }
            if (hops.length > 0) extra['x-headroom-failover'] = formatFailoverHeader(hops);
            keepAlive.stop();
            const held = start.kind === 'stream_error' ? start.held : start;
            const outcome = await relayResponse(res, upstream, held, tap, extra, endpoint.format, request.startedAt);
            ended.served = { connection: name, status: upstream.statusCode, outcome, errorCode: outcome.errorCode };
            return;
          }
          const bodyBytes = (await readUpstreamBody(upstream.body, ERROR_BODY_CAP, errorBodyTimeoutMs)) ?? Buffer.alloc(0);
          if (controller.signal.aborted) return;
          // An upstream that echoes the credential must not carry it into the client, the log or the UI.
          const secrets = secretStrings(target.connection.secret, result.sentSecret);
          const bodyText = redactSecrets(bodyBytes.toString('utf8'), secrets);
          const verdict = ctx.resilience.learnFailure(
            target,
            admitted.admission,
            endpoint.operation,
            {
              kind: 'response',
              status: upstream.statusCode,
              headers: upstream.headers,
              bodyText,
              ...(result.wallResetAt === null ? {} : { cooldownUntil: result.wallResetAt }),
            },
            ctx.now(),
          );
          keepAlive.stop();
          if (keepAlive.committed) {
            // The client already has a 200 stream (it waited in the lane): the error can only be an SSE event now.
            const summary = summarizeUpstreamText(bodyText, headerValue(upstream.headers['content-type']));
            endStreamWithError(res, endpoint.format, `${name} answered ${upstream.statusCode}: ${summary}`);
            ended.served = { connection: name, status: res.statusCode, outcome: null, errorCode: verdict.reason };
            return;
          }
          if (!isLast && verdict.shouldFailover) {
            hops.push({ connection: name, status: upstream.statusCode, reason: verdict.reason });
            continue;
          }
          if (hops.length > 0) extra['x-headroom-failover'] = formatFailoverHeader(hops);
          const status = verdict.status ?? upstream.statusCode;
          relayErrorResponse(res, upstream, bodyBytes, { format: endpoint.format, connection: name, status, retryAfterMs: verdict.retryAfterMs, extraHeaders: extra, secrets });
          ended.served = { connection: name, status, outcome: null, errorCode: verdict.reason };
          return;
        } finally {
          admitted.admission.release();
          if (slot === 'held') ctx.slots.release(target.connection.view.id);
        }
      }
      // Every runnable target declined before dispatch (e.g. a probe slot was taken meanwhile).
      return finishWithError(noTargetError(model, excluded));
    } finally {
      res.off('close', onClientClose);
    }
  } finally {
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
      latencyMs: ctx.now() - request.startedAt,
      ttfbMs: s?.outcome?.ttfbMs ?? null,
      inputTokens: usage?.inputTokens ?? null,
      outputTokens: usage?.outputTokens ?? null,
      cacheReadTokens: usage?.cacheReadTokens ?? null,
      cacheWriteTokens: usage?.cacheWriteTokens ?? null,
      failover: hops,
      errorCode: s ? s.errorCode : 'client_closed',
      servedVia,
    });
  }
}
