import { extractSessionKey } from '../routing/affinity/session-key';
import { sendClientError } from './client-errors';
import { parseModelBody } from './parse-model-body';
import type { ProxyContext } from './proxy-context';
import { createKeepAlive } from './sse-keepalive';
import { admitCandidate, admitLeaseGate, admitQuotaGate, leaseClaimOf, quotaApplies } from './stages/admit';
import { sendAnswer, answerError } from './stages/answer';
import { attemptCandidate } from './stages/attempt';
import type { ModelRequest, RequestFrame } from './stages/frame';
import { learnPick, learnPin, learnQuota, markQuota, recordRequest, type Ended } from './stages/learn';
import { noTargetError } from './stages/no-target-error';
import { planRequest } from './stages/plan';

export type { ModelRequest } from './stages/frame';

/**
 * One model request through the stages of ARCHITECTURE §2: plan → admit → attempt (until one
 * answers with something other than a failure the next candidate may fix) → answer → learn.
 * Nothing is committed to the client before an answer really began, so failover stays possible
 * until then; every attempt is learned from exactly once, and the request is logged once.
 */
export async function handleModelRequest(ctx: ProxyContext, request: ModelRequest): Promise<void> {
  const { req, res, endpoint } = request;
  const parsed = parseModelBody(request.body);
  if (!parsed.ok) {
    // Malformed input is answered and not logged: nothing is written for a request that never was one.
    sendClientError(res, endpoint.format, parsed.error);
    return;
  }
  const { model, stream } = parsed.value;
  const settings = ctx.settings();
  const headersTimeoutMs = stream ? settings.streamHeadersTimeoutMs : settings.responseTimeoutMs;
  const controller = new AbortController();
  const frame: RequestFrame = {
    request,
    parsed: parsed.value,
    keepAlive: createKeepAlive(res),
    signal: controller.signal,
    headersTimeoutMs,
    errorBodyTimeoutMs: Math.min(headersTimeoutMs, settings.errorBodyTimeoutMs),
    bodyTimeoutMs: settings.upstreamIdleTimeoutMs,
    responseTimeoutMs: settings.responseTimeoutMs,
    hops: [],
    excluded: [],
    servedVia: null,
    sessionPin: null,
    quota: null,
  };
  let ended: Ended | null = null;
  let releaseShare: (() => void) | null = null;
  const onClientClose = () => {
    if (!res.writableFinished) controller.abort();
  };
  try {
    if (settings.paused) {
      ended = answerError(frame, {
        code: 'proxy_paused',
        message: 'Headroom is paused; resume it from the tray or dashboard',
        retryAfterMs: 30_000,
      });
      return;
    }
    // Read before anything else: a malformed lease is refused before routing (LEASE-6).
    const lease = leaseClaimOf(req.headers, request.key.id);
    if (!lease.ok) {
      ended = answerError(frame, lease.error);
      return;
    }
    const session = extractSessionKey(req.headers).session?.value ?? null;

    // plan
    const plan = planRequest(ctx, { model, format: endpoint.format, key: request.key, session });
    if (plan.kind === 'refused') {
      ended = answerError(frame, plan.error);
      return;
    }
    frame.excluded = plan.excluded;
    releaseShare = plan.quotaShare?.release ?? null;
    // admit (the list gates: leases, then quota — only for a key a pool allocates)
    const gate = admitLeaseGate(ctx, model, plan.candidates, frame.excluded, lease.claim);
    if (!gate.ok) {
      ended = answerError(frame, gate.error);
      return;
    }
    let candidates = gate.candidates;
    if (quotaApplies(ctx, frame)) {
      const quota = await admitQuotaGate(ctx, frame, candidates);
      if (!quota.ok) {
        ended = answerError(frame, quota.error);
        return;
      }
      candidates = quota.candidates;
    }
    const waitForSlot = plan.quotaShare !== null && ctx.quotaShareWaitsForSlot();

    res.on('close', onClientClose);
    // The socket may have gone before we subscribed (a pipelined request behind a closed one): 'close' will not come again.
    if (res.destroyed) controller.abort();
    let picked = false;
    for (let i = 0; i < candidates.length; i++) {
      const target = candidates[i];
      if (!target) continue;
      const isLast = i === candidates.length - 1;
      // admit (this candidate: fence, slot, breaker)
      const admitted = await admitCandidate(ctx, target, isLast, lease.claim, controller.signal, waitForSlot);
      if (admitted.kind === 'aborted') return;
      if (admitted.kind === 'refused') {
        ended = answerError(frame, admitted.error);
        return;
      }
      if (admitted.kind === 'skip') {
        frame.excluded.push(admitted.exclusion);
        continue;
      }
      if (!picked) {
        picked = true;
        learnPick(ctx, plan, target);
      }
      try {
        // attempt
        const outcome = await attemptCandidate(ctx, frame, target, admitted.admission);
        switch (outcome.kind) {
          case 'refused':
            if (outcome.reason === 'aborted') return;
            continue;
          case 'failed-before-first-byte':
            if (!isLast && outcome.canFailover && !frame.keepAlive.committed) {
              outcome.drop?.body.destroy();
              if (outcome.hop) frame.hops.push(outcome.hop);
              continue;
            }
            ended = await sendAnswer(frame, outcome.answer, false);
            return;
          case 'failed-after-commit':
            ended = await sendAnswer(frame, outcome.answer, false);
            return;
          case 'served': {
            // learn (the session's pin) before the answer, whose headers say whether the pin decided
            const pinned = learnPin(ctx, frame, plan, target);
            markQuota(frame, target);
            ended = await sendAnswer(frame, outcome.answer, pinned);
            learnQuota(ctx, frame, target, outcome.answer, ended);
            return;
          }
        }
      } finally {
        admitted.release();
      }
    }
    // Every candidate declined before dispatch (e.g. a probe slot was taken meanwhile); when quota
    // held some of them, its refusal says why (a person must see "quota", not "busy").
    ended = answerError(frame, frame.quota?.error ?? noTargetError(model, frame.excluded));
  } finally {
    releaseShare?.();
    res.off('close', onClientClose);
    // learn (the activity log)
    recordRequest(ctx, frame, model, stream, ended);
  }
}
