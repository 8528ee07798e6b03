import type { AppError } from '../../../src-shared/contract/errors';
import type { TargetExclusion } from '../../../src-shared/domain/cooldown';
import type { Target } from '../../kernel/target';
import { estimateCost } from '../../quota/engine/cost-estimate';
import { gateCandidates, type QuotaGate } from '../../quota/runtime/quota-gate';
import { quotaDimensionOf } from '../../quota/runtime/quota-error';
import type { ProxyContext } from '../proxy-context';
import type { RequestFrame } from './frame';

/** Whether a pool allocates this request's key at all: one Map lookup; only then does the quota gate run. */
export function quotaApplies(ctx: ProxyContext, frame: RequestFrame): boolean {
  return ctx.engines.quota.coversKey(frame.request.key.id);
}

/** The quota pre-check's findings, kept for the answer's header and the pass's final refusal. */
export interface QuotaMark {
  /** Connection ids a pool covers for this key. */
  covered: ReadonlySet<string>;
  /** Connection ids whose pool penalised this key (soft policy, QPIPE-7). */
  penalized: ReadonlySet<string>;
  /** The refusal to give when quota held some candidates and nothing else could serve. */
  error: AppError | null;
}

/** The gate's answer: what may go on, what it held back (with reason `quota`), and its mark. */
export type QuotaGateResult =
  | { ok: true; candidates: readonly Target[]; excluded: TargetExclusion[]; mark: QuotaMark }
  | { ok: false; error: AppError; excluded: TargetExclusion[] };

/** How the quota gate reads a candidate's connection: one function for every request. */
const connectionIdOf = (t: Target): string => t.connection.view.id;

/**
 * The admit stage's quota gate (QPIPE-1/2/7), after routing and the lease gate: the request's cost is
 * estimated once, each pool covering a candidate decides once; a held candidate is excluded with
 * reason `quota`, a penalized one goes after the others. Every candidate held → the quota's own 429
 * (the soonest retry among them), so a person sees "quota" as the reason. The answer is a plain value
 * when the store decided synchronously (SQLite, the common case), else a promise; `await` takes both.
 */
export function admitQuotaGate(
  ctx: ProxyContext,
  frame: RequestFrame,
  candidates: readonly Target[],
  /** What the plan and the lease gate excluded so far, for the refusal's details. */
  excluded: readonly TargetExclusion[],
): QuotaGateResult | Promise<QuotaGateResult> {
  const { request } = frame;
  const now = ctx.now();
  const cost = estimateCost({
    bodyBytes: request.body.length,
    maxTokens: frame.parsed.maxTokens,
    model: candidates[0]?.upstreamModel ?? frame.parsed.model,
  });
  const gate = gateCandidates(ctx.engines.quota, request.key.id, candidates, connectionIdOf, cost, now);
  return gate instanceof Promise ? gate.then((g) => settleQuotaGate(excluded, g)) : settleQuotaGate(excluded, gate);
}

/** The gate's findings: exclusions, the mark for the answer's header, and the result. */
function settleQuotaGate(before: readonly TargetExclusion[], gate: QuotaGate<Target>): QuotaGateResult {
  const excluded: TargetExclusion[] = [];
  let soonest: AppError | null = null;
  for (let i = 0; i < gate.blocked.length; i++) {
    const held = gate.blocked[i];
    if (held === undefined) continue;
    const { target, error } = held;
    if (soonest === null || (error.retryAfterMs ?? 0) < (soonest.retryAfterMs ?? 0)) soonest = error;
    excluded.push({
      connection: target.connection.view.name,
      model: target.upstreamModel,
      reason: 'quota',
      retryAfterSeconds: error.retryAfterMs === undefined ? null : Math.ceil(error.retryAfterMs / 1000),
      ...quotaDetail(error),
    });
  }
  const error = soonest === null ? null : withExclusions(soonest, [...before, ...excluded]);
  if (gate.allowed.length === 0 && error !== null) return { ok: false, error, excluded };
  return {
    ok: true,
    candidates: gate.allowed,
    excluded,
    mark: { covered: gate.covered, penalized: gate.penalized, error },
  };
}

/** The pool dimension that held it, when the refusal names one (issue 24's decision record). */
function quotaDetail(error: AppError): { detail?: string } {
  const dimension = quotaDimensionOf(error);
  return dimension === null ? {} : { detail: dimension };
}

/** The quota's refusal, with every candidate's exclusion beside its numbers (a mixed plan shows all reasons). */
function withExclusions(error: AppError, excluded: readonly TargetExclusion[]): AppError {
  const details = typeof error.details === 'object' && error.details !== null ? error.details : {};
  return { ...error, details: { ...details, excluded } };
}
