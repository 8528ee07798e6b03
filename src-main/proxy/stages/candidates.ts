import type { Target } from '../../kernel/target';
import type { ProxyContext } from '../proxy-context';
import { admitCandidate, type CandidateAdmission } from './admit';
import { attemptWithinBudget } from './attempt-budget';
import { type QuotaMark } from './admit-quota';
import { answerError, sendAnswer, type Ended, type ServedMarks } from './answer';
import { dropObserved, type Seen } from './attempt';
import { attemptEntry } from './attempt-journal';
import { recordOf, type Answer, type AttemptRecord } from './attempt-record';
import type { RequestFrame } from './frame';
import { learnAnswered, learnAttempt, learnPick, learnPin } from './learner';
import { noTarget } from './no-target-error';
import { cacheLossOf, learnCache, waitsForCache } from './cache-aware';
import { coolingAfter, endedWith, nothingRuns, type Admitted, type PassResult } from './pass-result';
import type { RequestTrail } from './trail';

type Admission = Extract<CandidateAdmission, { kind: 'admitted' }>;
type Served = Extract<AttemptRecord, { kind: 'served' }>;

/** An answer to send: the one await the pass makes after its attempt; `served` learns once it ended. */
interface Send {
  kind: 'send';
  answer: Answer;
  marks: ServedMarks | undefined;
  served: Served | null;
}

/** What the pass does after an attempt: move on (null), end (a pass result), or send an answer. */
type Step = PassResult | Send | null;

const ABORTED: PassResult = { kind: 'aborted' };

/**
 * The candidates of one pass in order: admit each (fence, slot, breaker), attempt it, learn from it,
 * keep it on the trail, then move on or answer. Every candidate declined before dispatch (a probe
 * slot taken meanwhile, a busy connection): the pass ends with why nothing could run.
 *
 * One async frame for the whole pass: admission, attempt and answer are awaited here, and every
 * step between them is a plain function returning a value. Each async function on the path cost a
 * promise, a generator frame and an await context per request (issue 22: the staged path allocated
 * ~12 % more than the code before it, and the young-generation GC was the difference in CPU).
 */
export async function runCandidates(
  ctx: ProxyContext,
  frame: RequestFrame,
  trail: RequestTrail,
  admitted: Admitted,
): Promise<PassResult> {
  const { plan, candidates } = admitted;
  const waitForSlot = plan.quotaShare !== null && ctx.config.quotaShareWaitsForSlot();
  let picked = false;
  try {
    for (let i = 0; i < candidates.length; i++) {
      const target = candidates[i];
      if (!target) continue;
      const isLast = i === candidates.length - 1;
      const admitting = admitCandidate(ctx, target, isLast, frame, waitForSlot, trail.goNow);
      const admission = admitting instanceof Promise ? await admitting : admitting;
      if (admission.kind !== 'admitted') {
        const declined = declinedStep(frame, trail, admitted, admission);
        if (declined === null) continue;
        return declined;
      }
      trail.queuedMs += admission.queuedMs;
      if (!picked) {
        picked = true;
        learnPick(ctx, plan, target);
      }
      // The slot is held until the answer ends (a relayed stream included).
      try {
        const startedAt = ctx.now();
        const seen = await attemptWithinBudget(ctx, frame, target, admission);
        const record = learned(ctx, frame, trail, target, admission, seen, startedAt);
        const step = decide(ctx, frame, trail, admitted, record, isLast);
        if (step === null) continue;
        if (step.kind !== 'send') return step;
        const done = await sendAnswer(frame, trail, step.answer, step.marks);
        if (step.served !== null) afterServed(ctx, frame, admitted, step.served, done);
        return endedWith(done);
      } finally {
        admission.release();
      }
    }
    // When quota held some candidates, its refusal says why (a person must see "quota", not "busy").
    const quotaError = admitted.quota?.error ?? null;
    if (quotaError) return endedWith(answerError(frame, trail, quotaError));
    return nothingRuns(frame, trail, noTarget(frame.parsed.model, admitted.excluded));
  } finally {
    plan.quotaShare?.release();
  }
}

/** A candidate not admitted: the pass ends (aborted, refused by its fence or queue) or moves on (null: skipped). */
function declinedStep(
  frame: RequestFrame,
  trail: RequestTrail,
  admitted: Admitted,
  admission: Exclude<CandidateAdmission, Admission>,
): PassResult | null {
  if (admission.kind === 'aborted') return ABORTED;
  if (admission.kind === 'refused') return endedWith(answerError(frame, trail, admission.error));
  admitted.excluded.push(admission.exclusion);
  (trail.lateSkips ??= []).push([trail.attempts.length, admission.exclusion]);
  return null;
}

/** The learner learns the attempt once; the trail keeps it as a record. */
function learned(
  ctx: ProxyContext,
  frame: RequestFrame,
  trail: RequestTrail,
  target: Target,
  admission: Admission,
  seen: Seen,
  startedAt: number,
): AttemptRecord {
  const verdict = learnAttempt(ctx, target, admission.admission, seen, frame.request.body);
  const record = recordOf(frame, trail.hops, target, seen, verdict);
  keep(trail, record, startedAt, ctx.now());
  return record;
}

/** The trail keeps every attempt; a failure that is always told joins the failover list at once. */
function keep(trail: RequestTrail, record: AttemptRecord, startedAt: number, now: number): void {
  const entry = attemptEntry(record, startedAt, now);
  if (entry) trail.attempts.push(entry);
  if (record.kind === 'failed' && record.listed === 'now' && record.hop) trail.hops.push(record.hop);
  trail.translated = record.translated;
  trail.servedVia = record.via;
}

/** Failover only before the first byte reached the client, and only when the engines say it may help. */
function decide(
  ctx: ProxyContext,
  frame: RequestFrame,
  trail: RequestTrail,
  admitted: Admitted,
  record: AttemptRecord,
  isLast: boolean,
): Step {
  switch (record.kind) {
    case 'refused':
      return record.reason === 'aborted' ? ABORTED : null;
    case 'served':
      return served(ctx, frame, trail, admitted, record);
    case 'failed': {
      // A keep-alive opened for a cooldown wait named no connection: failover stays honest after it.
      const open = frame.keepAlive.committed && trail.held?.streamOpened !== true;
      // Issue 24 §3: the pinned account's short 429 with a warm cache is waited for, not failed over from.
      if (
        !isLast &&
        record.canFailover &&
        !open &&
        !waitsForCache(ctx, frame.parsed.model, admitted.plan.pin, record)
      ) {
        movePast(trail, record);
        return null;
      }
      return coolingAfter(ctx, trail, record) ?? sendOf(record.answer);
    }
    case 'failed-after-commit':
      if (trail.held?.streamOpened === true) {
        if (!isLast) {
          trail.hops.push(record.hop);
          return null;
        }
        const held = coolingAfter(ctx, trail, record);
        if (held) return held;
      }
      return sendOf(record.answer);
  }
}

function sendOf(answer: Answer): Send {
  return { kind: 'send', answer, marks: undefined, served: null };
}

/** The loop moves past a failed attempt (a failover or a hold): its answer is dropped, its hop told. */
export function movePast(trail: RequestTrail, record: Extract<AttemptRecord, { kind: 'failed' }>): void {
  if (record.drop) dropObserved(record.drop);
  if (record.hop && record.listed === 'on-move') trail.hops.push(record.hop);
}

/** Served: the session's pin learns first (the answer's headers say whether it decided), then the answer is sent. */
function served(ctx: ProxyContext, frame: RequestFrame, trail: RequestTrail, admitted: Admitted, record: Served): Send {
  // Issue 24 §3: what a move throws away is priced before the pin learns the new account.
  trail.cacheLost = cacheLossOf(ctx, admitted.plan.pin, record.target);
  const pin = learnPin(ctx, admitted.plan, record.target);
  trail.sessionPin = pin.mark;
  const quota = quotaHeaderOf(admitted.quota, frame, record.target);
  return { kind: 'send', answer: record.answer, marks: { pinned: pin.pinned, quota }, served: record };
}

/** Once a served answer ended: what it said of the account (headers, usage) is learned, then the cache. */
function afterServed(ctx: ProxyContext, frame: RequestFrame, admitted: Admitted, record: Served, done: Ended): void {
  learnAnswered(ctx, frame.request.key.id, record.target, record.answer.upstream.headers, done.outcome);
  learnCache(ctx, admitted.plan.pin, record.target, done.outcome?.usage);
}

/**
 * `x-leeway-quota` for a served request a pool covers: whether its key was penalized (QPIPE-7); one
 * served elsewhere because its pool's connection was demoted says `penalized`. A keep-alive stream
 * already sent its headers: nothing more can be said there.
 */
function quotaHeaderOf(mark: QuotaMark | null, frame: RequestFrame, target: Target): string | null {
  if (!mark || frame.request.res.headersSent) return null;
  const id = target.connection.view.id;
  if (mark.covered.has(id)) return mark.penalized.has(id) ? 'penalized' : 'ok';
  return mark.penalized.size > 0 ? 'penalized' : null;
}
