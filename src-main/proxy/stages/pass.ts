import type { ProxyContext } from '../proxy-context';
import { admitQuotaGate, quotaApplies, type QuotaGateResult } from './admit-quota';
import { admitLeaseGate } from './admit-lease';
import { answerError } from './answer';
import { runCandidates } from './candidates';
import type { RequestFrame } from './frame';
import { endedWith, nothingRuns, type Admitted, type PassResult } from './pass-result';
import { planRequest, type CandidatesPlan } from './plan';
import type { RequestTrail } from './trail';

/**
 * One pass of plan → admit → attempt → answer → learn (ARCHITECTURE §2). Each attempt comes back
 * as a value (candidates.ts): the learner learns it once, the trail keeps it, and the pass moves on
 * only while nothing was committed and the engines say a failover may help. Plan and gates are
 * synchronous in the common case: a plain value when nothing ran, else the candidates' one promise.
 */
export function runPass(ctx: ProxyContext, frame: RequestFrame, trail: RequestTrail): PassResult | Promise<PassResult> {
  const plan = planRequest(ctx, {
    model: frame.parsed.model,
    wire: frame.request.endpoint.wire,
    key: frame.request.key,
    session: frame.session,
    agent: frame.agent?.agent ?? null,
    body: frame.request.body,
    goNow: trail.goNow,
  });
  if (plan.kind !== 'candidates') {
    if (plan.excluded) trail.skipped = plan.excluded;
    return nothingRuns(frame, trail, plan);
  }
  // Issue 24: the screens' reasons, kept for the decision record (the gates add to these lists).
  trail.skipped = plan.excluded;
  let gated: ReturnType<typeof admitGates>;
  try {
    gated = admitGates(ctx, frame, trail, plan);
  } catch (error) {
    plan.quotaShare?.release();
    throw error;
  }
  if (gated instanceof Promise)
    return gated.then(
      (admitted) => candidatesOf(ctx, frame, trail, plan, admitted),
      (error: unknown) => {
        plan.quotaShare?.release();
        throw error;
      },
    );
  return candidatesOf(ctx, frame, trail, plan, gated);
}

/** The admitted candidates' run (which releases the plan's quota share when it ends), or the gates' answer. */
function candidatesOf(
  ctx: ProxyContext,
  frame: RequestFrame,
  trail: RequestTrail,
  plan: CandidatesPlan,
  admitted: Admitted | PassResult,
): PassResult | Promise<PassResult> {
  if (!('plan' in admitted)) {
    plan.quotaShare?.release();
    return admitted;
  }
  trail.skipped = admitted.excluded;
  return runCandidates(ctx, frame, trail, admitted);
}

/**
 * The admit stage's list gates: leases, then quota (only for a key a pool allocates). Both answer
 * synchronously in the common case: no promise (and no microtask) then.
 */
function admitGates(
  ctx: ProxyContext,
  frame: RequestFrame,
  trail: RequestTrail,
  plan: CandidatesPlan,
): Admitted | PassResult | Promise<Admitted | PassResult> {
  const leased = admitLeaseGate(ctx, frame.parsed.model, plan.candidates, plan.excluded, frame.claim);
  if ('kind' in leased) return nothingRuns(frame, trail, leased);
  if (!quotaApplies(ctx, frame)) return { plan, candidates: leased.candidates, excluded: plan.excluded, quota: null };
  const gate = admitQuotaGate(ctx, frame, leased.candidates, plan.excluded);
  const settle = (quota: QuotaGateResult): Admitted | PassResult =>
    quota.ok ? withQuota(ctx, plan, quota) : quotaRefused(frame, trail, plan, quota);
  return gate instanceof Promise ? gate.then(settle) : settle(gate);
}

/** Every candidate held by quota: the quota's 429, the holds kept for the decision record. */
function quotaRefused(
  frame: RequestFrame,
  trail: RequestTrail,
  plan: CandidatesPlan,
  quota: Extract<QuotaGateResult, { ok: false }>,
): PassResult {
  trail.skipped = [...plan.excluded, ...quota.excluded];
  return endedWith(answerError(frame, trail, quota.error));
}

/** QPIPE-7: a soft-penalised key's p2c/auto score is multiplied by the factor (other strategies demote it). */
function withQuota(ctx: ProxyContext, plan: CandidatesPlan, quota: Extract<QuotaGateResult, { ok: true }>): Admitted {
  const excluded = quota.excluded.length === 0 ? plan.excluded : [...plan.excluded, ...quota.excluded];
  if (quota.mark.penalized.size === 0) return { plan, candidates: quota.candidates, excluded, quota: quota.mark };
  const candidates = ctx.engines.roundRobin.rescorePenalized(
    plan.combo,
    quota.candidates,
    quota.mark.penalized,
    ctx.engines.quota.softDeprioritizeFactor(),
    plan.pin?.decided ?? null,
    ctx.now(),
  );
  return { plan, candidates, excluded, quota: quota.mark };
}
