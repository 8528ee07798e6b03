import type { AppError } from '../../../src-shared/contract/errors';
import { RequestSignal } from '../../kernel/request-signal';
import { extractAgent } from '../../routing/affinity/agent-key';
import { sessionKeyOf } from '../../routing/affinity/session-key';
import { INTERNAL_ERROR, logInternalError } from '../accept/internal-error';
import { parseGeminiBody } from '../accept/gemini-door';
import { parseModelBody, type ModelBody } from '../accept/parse-model-body';
import { recordRefusal } from '../accept/record-refusal';
import { BACKGROUND_WARNING, foregroundBody } from '../accept/responses-background';
import type { ProxyContext } from '../proxy-context';
import { sendClientError } from '../relay/client-errors';
import { createKeepAlive } from '../relay/sse-keepalive';
import { leaseClaimOf } from './admit-lease';
import { answerError, type Ended } from './answer';
import type { ModelRequest, RequestFrame } from './frame';
import { recordRequest } from './request-row';
import { afterPass } from './request-loop';
import { runPass } from './pass';
import { loggedEnd } from './shutdown-answer';
import { createTrail, type RequestTrail } from './trail';

export type { ModelRequest } from './frame';

const PAUSED: AppError = {
  code: 'proxy_paused',
  message: 'Leeway is paused; resume it from the tray or dashboard',
  retryAfterMs: 30_000,
};

/**
 * One model request through the stages of ARCHITECTURE §2 (plan → admit → attempt → answer →
 * learn, pass.ts, with cooling holds in request-loop.ts). Nothing is committed to the client before an answer really began, so
 * failover stays possible until then; every attempt is learned from exactly once, and the request
 * is logged once, from its trail.
 */
export async function handleModelRequest(ctx: ProxyContext, asked: ModelRequest): Promise<void> {
  const { req, res, endpoint } = asked;
  // ROUTE-3: a background Responses request is answered in the foreground, and says so.
  const foreground = endpoint.wire === 'responses' ? foregroundBody(asked.body) : null;
  const request = foreground ? { ...asked, body: foreground } : asked;
  if (foreground) ctx.host.log(`[proxy] ${BACKGROUND_WARNING}`);
  // Issue 23: a Gemini body names no model; the URL does (gemini-endpoints.ts).
  const parsed =
    endpoint.urlModel === undefined ? parseModelBody(request.body) : parseGeminiBody(request.body, endpoint);
  if (!parsed.ok) {
    // Logged with its reason (issue 13 §3) so a client sending junk can see why; never its body.
    sendClientError(res, endpoint.format, parsed.error);
    const { startedAt, key } = request;
    recordRefusal(ctx, {
      startedAt,
      format: endpoint.format,
      endpoint: endpoint.name,
      keyName: key.name,
      error: parsed.error,
    });
    return;
  }
  // Read before anything else: a malformed lease is refused before routing (LEASE-6).
  const lease = leaseClaimOf(req.headers, request.key.id);
  // Not an AbortController: see kernel/request-signal.ts (Node's signals outlive young GCs).
  const signal = new RequestSignal();
  const frame = frameOf(ctx, request, parsed.value, signal, lease.ok ? lease.claim : null, foreground !== null);
  const trail = createTrail();
  let ended: Ended | null = null;
  const onClientClose = () => {
    if (!res.writableFinished) signal.abort();
  };
  // Issue 21 §9: a shutdown waits for it, then ends it through this signal (ShuttingDown).
  ctx.host.inFlight.add(signal);
  try {
    if (ctx.config.settings().paused) ended = answerError(frame, trail, PAUSED);
    else if (!lease.ok) ended = answerError(frame, trail, lease.error);
    else {
      res.on('close', onClientClose);
      // The socket may have gone before we subscribed (a pipelined request behind a closed one): 'close' will not come again.
      if (res.destroyed) signal.abort();
      // Awaited only where a promise came: plan, gates and refusals are synchronous (pass.ts).
      const running = runPass(ctx, frame, trail);
      const after = afterPass(ctx, frame, trail, running instanceof Promise ? await running : running);
      ended = after instanceof Promise ? await after : after;
    }
  } catch (error) {
    ended = internalError(ctx, frame, trail, error);
  } finally {
    ctx.host.inFlight.delete(signal);
    res.off('close', onClientClose);
    recordRequest(ctx, frame, trail, loggedEnd(ended));
  }
}

/** The request's frame: what it asked, what routing needs of it, and its budgets, read once. */
function frameOf(
  ctx: ProxyContext,
  request: ModelRequest,
  parsed: ModelBody,
  signal: RequestSignal,
  claim: RequestFrame['claim'],
  foreground: boolean,
): RequestFrame {
  const settings = ctx.config.settings();
  const headersTimeoutMs = parsed.stream ? settings.streamHeadersTimeoutMs : settings.responseTimeoutMs;
  return {
    request,
    parsed,
    keepAlive: createKeepAlive(request.res, request.endpoint.wire === 'gemini'),
    signal,
    session: sessionKeyOf(request.req.headers),
    agent: extractAgent(request.req.headers),
    claim,
    headersTimeoutMs,
    errorBodyTimeoutMs: Math.min(headersTimeoutMs, settings.errorBodyTimeoutMs),
    bodyTimeoutMs: settings.upstreamIdleTimeoutMs,
    responseTimeoutMs: settings.responseTimeoutMs,
    warning: foreground ? BACKGROUND_WARNING : null,
  };
}

/**
 * Issue 21 §3: only a bug lands here; it is logged with its stack, the client gets a typed answer
 * in its format and the activity row says internal_error (not that the client left).
 */
function internalError(ctx: ProxyContext, frame: RequestFrame, trail: RequestTrail, error: unknown): Ended {
  logInternalError(ctx.host.log, frame.request.req, error);
  return answerError(frame, trail, INTERNAL_ERROR);
}
