import type { AppError } from '../../../src-shared/contract/errors';
import type { TargetExclusion } from '../../../src-shared/domain/cooldown';
import { checkFence } from '../../routing/leases/lease-fence';
import type { Target } from '../../kernel/target';
import type { ProxyContext } from '../proxy-context';
import type { Admission } from '../../kernel/attempt-outcome';
import { checkQueueAdmission, queueTimeoutError } from '../../resilience/queue/engine/queue-admission';
import { resolveQueueBudgets, type QueueBudgets } from '../../resilience/queue/engine/queue-budgets';
import { holdInputOf } from '../held/hold-input';
import { waitHeld } from '../held/hold-wait';
import type { SlotWait } from '../../resilience/queue/connection-slots';
import type { RequestFrame } from './frame';

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
