import { statusOf } from '../../../src-shared/contract/errors';
import type { TargetExclusion } from '../../../src-shared/domain/cooldown';
import type { WireFormat } from '../../../src-shared/domain/connection';
import { extractSessionKey } from '../../routing/affinity/session-key';
import type { LeaseClaim } from '../../routing/leases/lease-owner-match';
import { sendClientError } from '../relay/client-errors';
import type { AppError } from '../../../src-shared/contract/errors';
import { holdForCooldown, type HoldResult } from './cooldown-hold';
import { INTERNAL_ERROR, logInternalError } from '../accept/internal-error';
import { freeAgain } from './reset-words';
import { parseModelBody } from '../accept/parse-model-body';
import { recordRefusal } from '../accept/record-refusal';
import { BACKGROUND_WARNING, foregroundBody } from '../accept/responses-background';
import type { ProxyContext } from '../proxy-context';
import { createKeepAlive } from '../relay/sse-keepalive';
import {
  admitCandidate,
  admitLeaseGate,
  admitQuotaGate,
  attemptWithinBudget,
  leaseClaimOf,
  quotaApplies,
} from './admit';
import { sendAnswer, answerError } from './answer';
import type { Answer, AttemptOutcome } from './attempt';
import { noteAttempt, startAttempt, type AttemptJournal } from './attempt-journal';
import type { ModelRequest, RequestFrame } from './frame';
import { learnPick, learnPin, learnQuota, markQuota, recordRequest, type Ended } from './learn';
import { exclusionsBehind, noTargetError } from './no-target-error';
import { planRequest, type Plan } from './plan';
import { RequestSignal } from '../../kernel/request-signal';
import { endedByShutdown, loggedEnd } from './shutdown-answer';

export type { ModelRequest } from './frame';

interface PassInput {
  model: string;
  wire: WireFormat;
  key: ModelRequest['key'];
  session: string | null;
  claim: LeaseClaim | null;
  /** The request body already in memory: the plan's strategies read its size, prefix and tools (issue 11). */
  body: Buffer;
}

/**
 * How one pass of plan → admit → attempt ended. `cooling`: it would end with `finish()` only
 * because targets are cooling (CONC-7) — the caller may wait and run another pass instead, after
 * `discard()` (which drops a held upstream answer).
 */
type Pass =
  | { kind: 'ended'; ended: Ended }
  | { kind: 'aborted' }
  | {
      kind: 'cooling';
      excluded: () => readonly TargetExclusion[] | null;
      /** The held answer (or refusal), saying when the first target serves again when that is known. */
      finish(reset: ResetWord | null): Promise<Ended>;
      /** A wait follows: the held answer is dropped, and its failure stays in the failover list. */
      discard(): void;
    };

type ResetWord = Extract<HoldResult, { kind: 'give-up' }>['reset'];

/**
 * One model request through the stages of ARCHITECTURE §2: plan → admit → attempt (until one
 * answers with something other than a failure the next candidate may fix) → answer → learn.
 * Nothing is committed to the client before an answer really began, so failover stays possible
 * until then; every attempt is learned from exactly once, and the request is logged once. A pass
 * that would fail only because every target is in a short transient cooldown is held and run
 * again (CONC-7..9, `proxy/cooldown-hold.ts`).
 */
export async function handleModelRequest(ctx: ProxyContext, asked: ModelRequest): Promise<void> {
  const { req, res, endpoint } = asked;
  // ROUTE-3: a background Responses request is answered in the foreground, and says so.
  const foreground = endpoint.wire === 'responses' ? foregroundBody(asked.body) : null;
  const request = foreground ? { ...asked, body: foreground } : asked;
  if (foreground) ctx.log(`[proxy] ${BACKGROUND_WARNING}`);
  const parsed = parseModelBody(request.body);
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
  const { model, stream } = parsed.value;
  const settings = ctx.settings();
  const headersTimeoutMs = stream ? settings.streamHeadersTimeoutMs : settings.responseTimeoutMs;
  // Not an AbortController: see request-signal.ts (Node's signals outlive young GCs).
  const signal = new RequestSignal();
  const frame: RequestFrame = {
    request,
    parsed: parsed.value,
    keepAlive: createKeepAlive(res),
    signal,
    headersTimeoutMs,
    errorBodyTimeoutMs: Math.min(headersTimeoutMs, settings.errorBodyTimeoutMs),
    bodyTimeoutMs: settings.upstreamIdleTimeoutMs,
    responseTimeoutMs: settings.responseTimeoutMs,
    hops: [],
    excluded: [],
    servedVia: null,
    sessionPin: null,
    quota: null,
    quotaHeader: null,
    held: null,
    translated: null,
    warning: foreground ? BACKGROUND_WARNING : null,
    queuedMs: 0,
  };
  let ended: Ended | null = null;
  const journal: AttemptJournal = [];
  const onClientClose = () => {
    if (!res.writableFinished) signal.abort();
  };
  // Issue 21 §9: a shutdown waits for it, then ends it through this signal (ShuttingDown).
  ctx.inFlight.add(signal);
  try {
    if (settings.paused) {
      ended = answerError(frame, {
        code: 'proxy_paused',
        message: 'Leeway is paused; resume it from the tray or dashboard',
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
    const input: PassInput = {
      model,
      wire: endpoint.wire,
      key: request.key,
      session,
      claim: lease.claim,
      body: request.body,
    };

    res.on('close', onClientClose);
    // The socket may have gone before we subscribed (a pipelined request behind a closed one): 'close' will not come again.
    if (res.destroyed) signal.abort();
    for (;;) {
      const pass = await runPass(ctx, frame, input, journal);
      if (pass.kind === 'aborted') {
        ended = endedByShutdown(frame);
        return;
      }
      if (pass.kind === 'ended') {
        ended = pass.ended;
        return;
      }
      const hold = await holdForCooldown(ctx, frame, pass.excluded);
      if (hold.kind === 'give-up') {
        ended = await pass.finish(hold.reset);
        return;
      }
      pass.discard();
      if (hold.kind === 'aborted') {
        ended = endedByShutdown(frame);
        return;
      }
      // The next pass plans afresh; what earlier passes tried stays in the hops.
      frame.excluded = [];
      frame.quota = null;
    }
  } catch (error) {
    // Issue 21 §3: only a bug lands here; it is logged with its stack, the client gets a typed
    // answer in its format and the activity row says internal_error (not that the client left).
    logInternalError(ctx.log, req, error);
    ended = answerError(frame, INTERNAL_ERROR);
  } finally {
    ctx.inFlight.delete(signal);
    res.off('close', onClientClose);
    // learn (the activity log)
    const logged = loggedEnd(ended);
    recordRequest(frame.held ? withHeldMs(ctx, frame.held.heldMs) : ctx, frame, model, stream, logged, journal);
  }
}

/** The activity row of a held request carries its held time (the learn stage builds the rest). */
function withHeldMs(ctx: ProxyContext, heldMs: number): ProxyContext {
  return { ...ctx, record: (entry) => ctx.record({ ...entry, heldMs: Math.round(heldMs) }) };
}

/** A refusal that a wait may turn into an answer: only the cooling one, made from its exclusions. */
function refusal(ctx: ProxyContext, frame: RequestFrame, error: AppError): Pass {
  const excluded = exclusionsBehind(error);
  if (excluded === null) return { kind: 'ended', ended: answerError(frame, error) };
  return {
    kind: 'cooling',
    excluded: () => excluded,
    finish: (reset) => Promise.resolve(answerError(frame, reset ? withReset(error, reset, ctx.now()) : error)),
    discard: () => undefined,
  };
}

/**
 * Issue 21 §11: a refusal that no wait will turn into an answer says when the first target serves
 * again, gives that as Retry-After, and, when that is longer than anyone would wait, tells the
 * client not to retry sooner (Claude Code would otherwise retry silently for minutes).
 */
function withReset(error: AppError, reset: NonNullable<ResetWord>, now: number): AppError {
  return {
    ...error,
    message: `${error.message} The earliest: ${freeAgain(reset.earliest, now)}.`,
    retryAfterMs: Math.max(1_000, reset.earliest.until - now),
    ...(reset.tooLong ? { shouldRetry: false } : {}),
  };
}

/** A held answer that says when the first target serves again (issue 21 §11); a relayed stream error stays as it came. */
function answerWithReset(answer: Answer, reset: NonNullable<ResetWord>, now: number): Answer {
  switch (answer.kind) {
    case 'error':
      return { ...answer, error: withReset(answer.error, reset, now) };
    case 'upstream-error':
      return {
        ...answer,
        reset: {
          note: `Leeway: every target is cooling down; the earliest: ${freeAgain(reset.earliest, now)}.`,
          retryAfterMs: Math.max(1_000, reset.earliest.until - now),
          shouldRetry: !reset.tooLong,
        },
      };
    default:
      return answer;
  }
}

/** Statuses a short cooldown explains (CONC-7): rate limited, or unavailable for now. */
const COOLING_STATUSES: ReadonlySet<number> = new Set([429, 503]);

type Failed = Extract<AttemptOutcome, { kind: 'failed-before-first-byte' | 'failed-after-commit' }>;

/** The status the client would see; null after a keep-alive stream opened (the failure can only be an SSE event). */
function statusOfFailure(outcome: Failed): number | null {
  if (outcome.kind === 'failed-after-commit') return null;
  const answer = outcome.answer;
  if (answer.kind === 'upstream-error') return answer.status;
  if (answer.kind === 'error') return statusOf(answer.error);
  return outcome.hop?.status ?? null;
}

/**
 * The last candidate failed with a 429/503: if a fresh plan finds every target cooling, the pass
 * is `cooling` (the failure just set that cooldown); the held answer goes out if no wait follows.
 */
function failedLast(ctx: ProxyContext, frame: RequestFrame, input: PassInput, outcome: Failed): Pass | null {
  const status = statusOfFailure(outcome);
  // After a keep-alive stream was opened for an earlier wait, the causes behind the exclusions decide alone.
  const cooling = status !== null ? COOLING_STATUSES.has(status) : frame.held?.streamOpened === true;
  if (!cooling || !ctx.cooldownWait.settings().enabled) return null;
  return {
    kind: 'cooling',
    excluded: () => {
      const again = planRequest(ctx, input);
      if (again.kind === 'refused') return exclusionsBehind(again.error);
      again.quotaShare?.release();
      return null;
    },
    finish: (reset) =>
      sendAnswer(frame, reset ? answerWithReset(outcome.answer, reset, ctx.now()) : outcome.answer, false),
    discard: () => {
      if (outcome.kind === 'failed-before-first-byte') outcome.drop?.body.destroy();
      // The failure before the wait is part of the story the failover header tells (issue 21 §13).
      if (outcome.hop) frame.hops.push(outcome.hop);
    },
  };
}

/** One pass of plan → admit → attempt → answer → learn; each attempt is noted in the journal (issue 13). */
async function runPass(
  ctx: ProxyContext,
  frame: RequestFrame,
  input: PassInput,
  journal: AttemptJournal,
): Promise<Pass> {
  // plan
  const plan: Plan = planRequest(ctx, input);
  if (plan.kind === 'refused') return refusal(ctx, frame, plan.error);
  frame.excluded = plan.excluded;
  const releaseShare = plan.quotaShare?.release ?? null;
  try {
    // admit (the list gates: leases, then quota — only for a key a pool allocates)
    const gate = admitLeaseGate(ctx, input.model, plan.candidates, frame.excluded, input.claim);
    if (!gate.ok) return refusal(ctx, frame, gate.error);
    let candidates = gate.candidates;
    if (quotaApplies(ctx, frame)) {
      // Both gates answer synchronously in the common case: no await (and no microtask) then.
      const gated = admitQuotaGate(ctx, frame, candidates);
      const quota = gated instanceof Promise ? await gated : gated;
      if (!quota.ok) return { kind: 'ended', ended: answerError(frame, quota.error) };
      candidates = quota.candidates;
      // QPIPE-7: a soft-penalised key's p2c/auto score is multiplied by the factor (other strategies demote it).
      if (frame.quota && frame.quota.penalized.size > 0)
        candidates = ctx.roundRobin.rescorePenalized(
          plan.combo,
          candidates,
          frame.quota.penalized,
          ctx.quota.softDeprioritizeFactor(),
          plan.pin?.decided ?? null,
          ctx.now(),
        );
    }
    const waitForSlot = plan.quotaShare !== null && ctx.quotaShareWaitsForSlot();
    let picked = false;
    for (let i = 0; i < candidates.length; i++) {
      const target = candidates[i];
      if (!target) continue;
      const isLast = i === candidates.length - 1;
      // admit (this candidate: fence, slot, breaker)
      const admitting = admitCandidate(ctx, target, isLast, input.claim, frame.signal, waitForSlot);
      const admitted = admitting instanceof Promise ? await admitting : admitting;
      if (admitted.kind === 'aborted') return { kind: 'aborted' };
      if (admitted.kind === 'refused') return { kind: 'ended', ended: answerError(frame, admitted.error) };
      if (admitted.kind === 'skip') {
        frame.excluded.push(admitted.exclusion);
        continue;
      }
      frame.queuedMs += admitted.queuedMs;
      if (!picked) {
        picked = true;
        learnPick(ctx, plan, target);
      }
      try {
        // attempt (within the request queue's execution backstop, QUEUE-4)
        const start = startAttempt(frame, ctx.now());
        const outcome = await attemptWithinBudget(ctx, frame, target, admitted);
        noteAttempt(journal, frame, target, start, outcome, ctx.now());
        switch (outcome.kind) {
          case 'refused':
            if (outcome.reason === 'aborted') return { kind: 'aborted' };
            continue;
          case 'failed-before-first-byte': {
            // A keep-alive opened for a cooldown wait named no connection: failover stays honest after it.
            const open = frame.keepAlive.committed && frame.held?.streamOpened !== true;
            if (!isLast && outcome.canFailover && !open) {
              outcome.drop?.body.destroy();
              if (outcome.hop) frame.hops.push(outcome.hop);
              continue;
            }
            return (
              failedLast(ctx, frame, input, outcome) ?? {
                kind: 'ended',
                ended: await sendAnswer(frame, outcome.answer, false),
              }
            );
          }
          case 'failed-after-commit':
            if (frame.held?.streamOpened === true) {
              if (!isLast) {
                frame.hops.push(outcome.hop);
                continue;
              }
              const held = failedLast(ctx, frame, input, outcome);
              if (held) return held;
            }
            return { kind: 'ended', ended: await sendAnswer(frame, outcome.answer, false) };
          case 'served': {
            // learn (the session's pin) before the answer, whose headers say whether the pin decided
            const pinned = learnPin(ctx, frame, plan, target);
            markQuota(frame, target);
            const ended = await sendAnswer(frame, outcome.answer, pinned);
            learnQuota(ctx, frame, target, outcome.answer, ended);
            return { kind: 'ended', ended };
          }
        }
      } finally {
        admitted.release();
      }
    }
    // Every candidate declined before dispatch (e.g. a probe slot was taken meanwhile); when quota
    // held some of them, its refusal says why (a person must see "quota", not "busy").
    const quotaError = frame.quota?.error ?? null;
    if (quotaError) return { kind: 'ended', ended: answerError(frame, quotaError) };
    return refusal(ctx, frame, noTargetError(input.model, frame.excluded));
  } finally {
    releaseShare?.();
  }
}
