import type { AppError } from '../../../src-shared/contract/errors';
import type { TargetExclusion } from '../../../src-shared/domain/cooldown';
import { hashLeaseOwner } from '../../db/lease-owner-material';
import type { HeaderBag } from '../../routing/affinity/session-key';
import { admitLeases } from '../../routing/leases/lease-admission';
import { checkFence } from '../../routing/leases/lease-fence';
import { readLeaseHeaders } from '../../routing/leases/lease-headers';
import type { LeaseClaim } from '../../routing/leases/lease-owner-match';
import type { Target } from '../../kernel/target';
import { estimateCost } from '../../quota/engine/cost-estimate';
import { gateCandidates, type QuotaGate } from '../../quota/runtime/quota-gate';
import { quotaDimensionOf } from '../../quota/runtime/quota-error';
import type { ProxyContext } from '../proxy-context';
import type { Admission } from '../../kernel/attempt-outcome';
import { checkQueueAdmission, queueTimeoutError } from '../../resilience/queue/engine/queue-admission';
import { resolveQueueBudgets, type QueueBudgets } from '../../resilience/queue/engine/queue-budgets';
import { withExecutionBackstop } from '../../resilience/queue/execution-backstop';
import { attemptCandidate, dropObserved, type Seen } from './attempt';
import { holdInputOf } from '../held/hold-input';
import { waitHeld } from '../held/hold-wait';
import type { SlotWait } from '../../resilience/queue/connection-slots';
import type { RequestFrame } from './frame';
import { noTarget, type NoTarget } from './no-target-error';

/** The lease a request presented, read once before the plan (LEASE-6): malformed headers are refused. */
export function leaseClaimOf(
  headers: HeaderBag,
  keyId: string,
): { ok: true; claim: LeaseClaim | null } | { ok: false; error: AppError } {
  const presented = readLeaseHeaders(headers).presented;
  if (presented.kind === 'none') return { ok: true, claim: null };
  if (presented.kind === 'refused') return { ok: false, error: { code: presented.code, message: presented.message } };
  return { ok: true, claim: { ownerHash: hashLeaseOwner(presented.owner), generation: presented.generation, keyId } };
}

/**
 * The admit stage's list gate (LEASE-1, LEASE-9, LEASE-11, LEASE-12): a lease holder goes only to its
 * connection (or the same generation moves to a free one); everyone else skips connections other
 * owners hold. Every candidate held by others is a 429 with Retry-After; none at all, ordinary routing.
 */
export function admitLeaseGate(
  ctx: ProxyContext,
  model: string,
  candidates: readonly Target[],
  excluded: TargetExclusion[],
  claim: LeaseClaim | null,
): { ok: true; candidates: readonly Target[] } | NoTarget {
  const book = ctx.sessions.leases.book();
  const now = ctx.now();
  const step = admitLeases(book, candidates, (t) => t.connection.view.id, claim, now);
  const decision = step.decision;
  switch (decision.kind) {
    case 'free':
    case 'held':
    case 'moved': {
      if (step.book !== book) {
        const stored = ctx.sessions.leases.commit(step.book);
        if (!stored.ok) return { kind: 'refused', error: stored.error };
      }
      if (decision.allowed.length !== candidates.length) {
        for (const t of candidates) {
          if (!decision.allowed.includes(t))
            excluded.push({
              connection: t.connection.view.name,
              model: t.upstreamModel,
              reason: 'leased',
              retryAfterSeconds: null,
              detail: "held by another session's exclusive lease",
            });
        }
      }
      return { ok: true, candidates: decision.allowed };
    }
    case 'capacity_unavailable':
      return {
        kind: 'refused',
        error: {
          code: 'lease_capacity_unavailable',
          message: `Every connection for this request is held by another session's exclusive lease; retry in ${decision.retryAfterSeconds}s`,
          retryAfterMs: decision.retryAfterSeconds * 1000,
          details: {
            state: 'waiting_for_capacity',
            eligibleCount: decision.eligibleCount,
            freeCount: decision.freeCount,
          },
        },
      };
    case 'no_eligible_connection':
      return noTarget(model, excluded);
    case 'refused':
      return { kind: 'refused', error: { code: decision.code, message: decision.message } };
  }
}

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

/**
 * One admitted candidate: release frees its slot and breaker probe, whatever the attempt did.
 * `executionMs`: the queue's execution backstop (QUEUE-4), null when the connection has no queue.
 */
export type CandidateAdmission =
  | {
      kind: 'admitted';
      admission: Admission;
      executionMs: number | null;
      /** How long the request waited in the connection's queue for its slot (0: none). */
      queuedMs: number;
      release(): void;
    }
  | { kind: 'skip'; exclusion: TargetExclusion }
  | { kind: 'refused'; error: AppError }
  | { kind: 'aborted' };

/**
 * The admit stage per candidate: the lease fence right before dispatch (LEASE-6, LEASE-8), the
 * maxConcurrent slot (CONC-2: a busy connection is passed over while later ones remain; the last is
 * waited for within a budget, then used anyway), then the breaker's admission (a HALF_OPEN probe slot).
 * `waitForSlot` (quota-share dispatch, CONC-3): every candidate's slot is waited for like the last
 * one's — the scheduler already put the least loaded account first, and skipping a busy shared
 * account would only send its burst to the next one. Same semaphore as CONC-2 (one per connection:
 * the `qsconn:<id>` of the reference), so both paths together never exceed maxConcurrent.
 * The wait is the request queue's (QUEUE-1..8): a full queue refuses at once (`RATE_LIMIT_QUEUE_FULL`;
 * a non-last candidate is skipped instead), a wait over `maxWaitMs` is refused and never sent
 * (`RATE_LIMIT_QUEUE_TIMEOUT`). These explicit budgets win over CONC-4's fail-open (see README).
 * A plain value when nothing can be waited for (no maxConcurrent), else a promise; `await` takes both.
 */
export function admitCandidate(
  ctx: ProxyContext,
  target: Target,
  isLast: boolean,
  frame: RequestFrame,
  waitForSlot = false,
  /** Issue 24 §2: the operator said "use any connection now": a cooling connection is admitted too. */
  goNow = false,
): CandidateAdmission | Promise<CandidateAdmission> {
  const claim = frame.claim;
  const view = target.connection.view;
  if (claim) {
    const fence = checkFence(ctx.sessions.leases.book(), claim, view.id, ctx.now());
    if (fence.kind === 'refused') return { kind: 'refused', error: { code: fence.code, message: fence.message } };
  }
  // No maxConcurrent: no slot, no queue, nothing to wait for, so no promise either (the common case).
  if (view.maxConcurrent === null) return admitToBreaker(ctx, target, 'none', null, 0, goNow);
  return admitThroughQueue(ctx, target, budgetsOf(ctx, target), isLast, waitForSlot, frame, goNow);
}

/** A connection with maxConcurrent: its slot first, waited for in its request queue when need be. */
async function admitThroughQueue(
  ctx: ProxyContext,
  target: Target,
  budgets: QueueBudgets,
  isLast: boolean,
  waitForSlot: boolean,
  frame: RequestFrame,
  goNow: boolean,
): Promise<CandidateAdmission> {
  const view = target.connection.view;
  // The clock is read only where a queue can be waited in (connections with maxConcurrent).
  const queuedFrom = ctx.now();
  const slot = await takeSlot(ctx, target, budgets, isLast, waitForSlot, frame);
  const queuedMs = slot === 'queued' ? ctx.now() - queuedFrom : 0;
  if (slot === 'aborted') return { kind: 'aborted' };
  if (typeof slot === 'object') return { kind: 'refused', error: slot.refused };
  if (slot === 'timed_out') return { kind: 'refused', error: queueTimeoutError(identityOf(target), budgets.maxWaitMs) };
  if (slot === 'busy')
    return {
      kind: 'skip',
      exclusion: {
        connection: view.name,
        model: target.upstreamModel,
        reason: 'busy',
        retryAfterSeconds: null,
        detail: `${view.maxConcurrent ?? 0} of ${view.maxConcurrent ?? 0} slots busy`,
      },
    };
  return admitToBreaker(ctx, target, slot, budgets, queuedMs, goNow);
}

/** The breaker's admission (a HALF_OPEN probe slot) once any connection slot is held. */
function admitToBreaker(
  ctx: ProxyContext,
  target: Target,
  slot: 'none' | 'held' | 'queued',
  budgets: QueueBudgets | null,
  queuedMs: number,
  goNow: boolean,
): CandidateAdmission {
  const view = target.connection.view;
  const holdsSlot = slot === 'held' || slot === 'queued';
  const admitted = ctx.engines.resilience.admit(target, ctx.now(), goNow);
  if (!admitted.ok) {
    if (holdsSlot) ctx.engines.slots.release(view.id);
    return { kind: 'skip', exclusion: admitted.exclusion };
  }
  const admission = admitted.admission;
  return {
    kind: 'admitted',
    admission,
    executionMs: budgets?.executionMs ?? null,
    queuedMs,
    release() {
      admission.release();
      if (holdsSlot) ctx.engines.slots.release(view.id);
    },
  };
}

/** QUEUE-7: the settings in force (env < stored) under the connection's own overrides; QUEUE-4's floor. */
function budgetsOf(ctx: ProxyContext, target: Target): QueueBudgets {
  const settings = ctx.config.settings();
  // The request's own start timeout is at most the longer of these two: the backstop never undercuts it.
  const ownTimeoutMs = Math.max(settings.responseTimeoutMs, settings.streamHeadersTimeoutMs);
  return resolveQueueBudgets(ctx.engines.slots.settings(), target.connection.view.rateLimitOverrides, ownTimeoutMs);
}

/** How a queue is named in its refusals: the connection and the model (the reference's `provider/model`). */
function identityOf(target: Target): string {
  return `${target.connection.view.name}/${target.upstreamModel}`;
}

/** `queued`: held too, after a wait in the connection's request queue. */
type SlotOutcome = 'held' | 'queued' | 'busy' | 'aborted' | 'timed_out' | { refused: AppError };

async function takeSlot(
  ctx: ProxyContext,
  target: Target,
  budgets: QueueBudgets,
  isLast: boolean,
  waitForSlot: boolean,
  frame: RequestFrame,
): Promise<SlotOutcome> {
  const view = target.connection.view;
  const max = view.maxConcurrent ?? Number.POSITIVE_INFINITY;
  if (ctx.engines.slots.tryAcquire(view.id, max)) return 'held';
  if (!isLast && !waitForSlot) return 'busy';
  // QUEUE-8/10: the pure admission check decides before the request joins the queue.
  const full = checkQueueAdmission(ctx.engines.slots.queued(view.id), budgets.maxQueueDepth, identityOf(target));
  // A full queue on a candidate with others behind it: the next one may serve at once.
  if (full) return isLast ? { refused: full } : 'busy';
  const outcome = await waitForQueue(ctx, frame, view, max, budgets);
  switch (outcome) {
    case 'acquired':
      return 'queued';
    case 'queue_full':
      // Not reached: the same check ran in this same tick; kept as the slots' own guard.
      return 'busy';
    case 'timed_out':
    case 'aborted':
      return outcome;
  }
}

/**
 * The queue wait, listed on the held board (issue 24 §2): "use any connection now" takes the slot
 * at once, over maxConcurrent (the operator's call: one request more on that connection).
 */
async function waitForQueue(
  ctx: ProxyContext,
  frame: RequestFrame,
  view: Target['connection']['view'],
  max: number,
  budgets: QueueBudgets,
): Promise<SlotWait> {
  const now = ctx.now();
  const what = `a free slot on ${view.name} (${ctx.engines.slots.queued(view.id) + 1} waiting, at most ${max} at once)`;
  const held = holdInputOf(frame, 'queue', what, now + budgets.maxWaitMs, { goNow: true, release: false });
  const waited = await waitHeld(ctx.host.inFlight.held, frame.signal, held, now, (signal) =>
    ctx.engines.slots.acquire(view.id, max, signal, budgets.maxWaitMs, budgets.maxQueueDepth),
  );
  if (waited.kind === 'waited' || waited.value === 'acquired') return waited.value;
  return ctx.engines.slots.tryAcquire(view.id, Number.POSITIVE_INFINITY) ? 'acquired' : 'aborted';
}

/**
 * The attempt under the queue's execution backstop (QUEUE-4/5): past `executionMs` from dispatch
 * the attempt is aborted, never learned from as the connection's failure (a local limit), and
 * answered with `RATE_LIMIT_EXECUTION_TIMEOUT` (504) unless another candidate may still serve.
 */
export function attemptWithinBudget(
  ctx: ProxyContext,
  frame: RequestFrame,
  target: Target,
  admitted: Extract<CandidateAdmission, { kind: 'admitted' }>,
): Promise<Seen> {
  // Not async: without a backstop the attempt's own promise is returned as is (no extra ticks).
  if (admitted.executionMs === null) return attemptCandidate(ctx, frame, target, frame.signal);
  return attemptWithBackstop(ctx, frame, target, admitted.executionMs);
}

async function attemptWithBackstop(
  ctx: ProxyContext,
  frame: RequestFrame,
  target: Target,
  executionMs: number,
): Promise<Seen> {
  const run = await withExecutionBackstop(frame.signal, executionMs, (signal) =>
    attemptCandidate(ctx, frame, target, signal),
  );
  if (!run.expired) return run.value;
  dropObserved(run.value.observation);
  return { ...run.value, observation: { kind: 'execution-timeout', executionMs } };
}
