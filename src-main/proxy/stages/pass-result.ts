import { statusOf, type AppError } from '../../../src-shared/contract/errors';
import type { TargetExclusion } from '../../../src-shared/domain/cooldown';
import type { Target } from '../../kernel/target';
import type { ProxyContext } from '../proxy-context';
import type { QuotaMark } from './admit-quota';
import { answerError, type Ended } from './answer';
import type { AttemptRecord } from './attempt-record';
import type { RequestFrame } from './frame';
import type { NoTarget } from './no-target-error';
import type { CandidatesPlan } from './plan';
import type { RequestTrail } from './trail';

export type Failed = Extract<AttemptRecord, { kind: 'failed' | 'failed-after-commit' }>;

/** A failure that a wait may turn into an answer (CONC-7): a refusal made of cooling exclusions, or the last candidate's 429/503. */
export type Cooling =
  { from: 'refusal'; error: AppError; excluded: readonly TargetExclusion[] } | { from: 'failure'; record: Failed };

/** How one pass of plan → admit → attempt ended; `cooling` is for the request loop to hold or answer. */
export type PassResult = { kind: 'ended'; ended: Ended } | { kind: 'aborted' } | { kind: 'cooling'; cooling: Cooling };

/** What a pass works through: the plan's candidates after the list gates, and what the gates found. */
export interface Admitted {
  plan: CandidatesPlan;
  candidates: readonly Target[];
  /** Everything left out so far (routing, leases, quota), for the final refusal. */
  excluded: TargetExclusion[];
  quota: QuotaMark | null;
}

export function endedWith(value: Ended): PassResult {
  return { kind: 'ended', ended: value };
}

/** Nothing can run: a cooling refusal is the loop's to hold; any other is the answer. */
export function nothingRuns(frame: RequestFrame, trail: RequestTrail, none: NoTarget): PassResult {
  if (none.kind === 'cooling') return { kind: 'cooling', cooling: { from: 'refusal', ...none } };
  return endedWith(answerError(frame, trail, none.error));
}

/** The status the client would see; null after a keep-alive stream opened (the failure can only be an SSE event). */
export function statusOfFailure(record: Failed): number | null {
  if (record.kind === 'failed-after-commit') return null;
  const answer = record.answer;
  if (answer.kind === 'upstream-error') return answer.status;
  if (answer.kind === 'error') return statusOf(answer.error);
  return record.hop?.status ?? null;
}

/** Statuses a short cooldown explains (CONC-7): rate limited, or unavailable for now. */
const COOLING_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/**
 * The last candidate failed: with a 429/503 (or after a hold opened the stream) a fresh plan may
 * find every target cooling, so the loop may wait; null when this failure is simply the answer.
 */
export function coolingAfter(ctx: ProxyContext, trail: RequestTrail, record: Failed): PassResult | null {
  const status = statusOfFailure(record);
  // After a keep-alive stream was opened for an earlier wait, the causes behind the exclusions decide alone.
  const cooling = status !== null ? COOLING_STATUSES.has(status) : trail.held?.streamOpened === true;
  if (!cooling || !ctx.engines.cooldownWait.settings().enabled) return null;
  return { kind: 'cooling', cooling: { from: 'failure', record } };
}
