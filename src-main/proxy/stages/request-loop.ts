import type { AppError } from '../../../src-shared/contract/errors';
import type { TargetExclusion } from '../../../src-shared/domain/cooldown';
import type { ProxyContext } from '../proxy-context';
import { answerError, sendAnswer, type Ended } from './answer';
import type { Answer } from './attempt-record';
import { movePast } from './candidates';
import { holdForCooldown, type HoldResult } from './cooldown-hold';
import type { RequestFrame } from './frame';
import { runPass } from './pass';
import type { Cooling, PassResult } from './pass-result';
import { planRequest } from './plan';
import { freeAgain } from './reset-words';
import { endedByShutdown } from './shutdown-answer';
import type { RequestTrail } from './trail';

type Reset = NonNullable<Extract<HoldResult, { kind: 'give-up' }>['reset']>;

/**
 * The request loop after a pass (plan → admit → attempt, pass.ts) ended: the answer it gave, or,
 * when it ended only because targets are cooling, not an answer yet: the loop holds the request
 * for the earliest one (CONC-7..9, cooldown-hold.ts) and runs another pass, or gives the answer,
 * saying when the first target serves again. Null: the client left before any answer. The first
 * pass is awaited in the request's own frame: a request that never cools makes no loop frame.
 */
export function afterPass(
  ctx: ProxyContext,
  frame: RequestFrame,
  trail: RequestTrail,
  pass: PassResult,
): Ended | null | Promise<Ended | null> {
  if (pass.kind === 'aborted') return endedByShutdown(frame, trail);
  if (pass.kind === 'ended') return pass.ended;
  return holdAndRun(ctx, frame, trail, pass.cooling);
}

/** Passes that end cooling: hold for the earliest target and run another, until one ends or no wait helps. */
async function holdAndRun(
  ctx: ProxyContext,
  frame: RequestFrame,
  trail: RequestTrail,
  first: Cooling,
): Promise<Ended | null> {
  let cooling = first;
  for (;;) {
    const current = cooling;
    const hold = await holdForCooldown(ctx, frame, trail, () => exclusionsOf(ctx, frame, current));
    if (hold.kind === 'give-up') return finish(ctx, frame, trail, current, hold.reset);
    // A wait follows: the held answer is dropped, and its failure stays in the failover list.
    if (current.from === 'failure') {
      if (current.record.kind === 'failed') movePast(trail, current.record);
      else trail.hops.push(current.record.hop);
    }
    if (hold.kind === 'aborted') return endedByShutdown(frame, trail);
    const next = runPass(ctx, frame, trail);
    const pass = next instanceof Promise ? await next : next;
    if (pass.kind === 'aborted') return endedByShutdown(frame, trail);
    if (pass.kind === 'ended') return pass.ended;
    cooling = pass.cooling;
  }
}

/**
 * What is cooling behind a pass that ended cooling, read only when a wait may follow: the refusal's
 * own exclusions, or a fresh plan's after a last candidate's 429/503 (null: something could run).
 */
function exclusionsOf(ctx: ProxyContext, frame: RequestFrame, cooling: Cooling): readonly TargetExclusion[] | null {
  if (cooling.from === 'refusal') return cooling.excluded;
  const again = planRequest(ctx, {
    model: frame.parsed.model,
    wire: frame.request.endpoint.wire,
    key: frame.request.key,
    session: frame.session,
    agent: frame.agent?.agent ?? null,
    body: frame.request.body,
  });
  if (again.kind === 'cooling') return again.excluded;
  if (again.kind === 'candidates') again.quotaShare?.release();
  return null;
}

/** No wait: the held answer goes out, saying when the first target serves again when that is known. */
function finish(
  ctx: ProxyContext,
  frame: RequestFrame,
  trail: RequestTrail,
  cooling: Cooling,
  reset: Reset | null,
): Promise<Ended> {
  if (cooling.from === 'refusal') {
    const error = reset ? withReset(cooling.error, reset, ctx.now()) : cooling.error;
    return Promise.resolve(answerError(frame, trail, error));
  }
  const answer = cooling.record.answer;
  return sendAnswer(frame, trail, reset ? answerWithReset(answer, reset, ctx.now()) : answer);
}

/**
 * Issue 21 §11: a refusal that no wait will turn into an answer says when the first target serves
 * again, gives that as Retry-After, and, when that is longer than anyone would wait, tells the
 * client not to retry sooner (Claude Code would otherwise retry silently for minutes).
 */
function withReset(error: AppError, reset: Reset, now: number): AppError {
  return {
    ...error,
    message: `${error.message} The earliest: ${freeAgain(reset.earliest, now)}.`,
    retryAfterMs: Math.max(1_000, reset.earliest.until - now),
    ...(reset.tooLong ? { shouldRetry: false } : {}),
  };
}

/** A held answer that says when the first target serves again (issue 21 §11); a relayed stream error stays as it came. */
function answerWithReset(answer: Answer, reset: Reset, now: number): Answer {
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
