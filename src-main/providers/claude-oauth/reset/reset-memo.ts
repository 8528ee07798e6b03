import { isResetOffered, type ResetStatus } from './parse-reset-status';
import type { ClaimResponse } from './parse-claim-result';
import { describeOutcome, isGranted, type LimitResetOutcome, type LimitResetResult } from './reset-outcome';

/** RESET-8: any failure waits this long before the next try. */
export const RESET_FAILURE_BACKOFF_MS = 15 * 60_000;
/** RESET-7: the reset is weekly, so a spent or withheld one is not asked for again for a week. */
export const RESET_WEEK_MS = 7 * 24 * 60 * 60_000;
/** Walls from requests sent before a grant arrive just after it; they ride on it instead of claiming. */
export const RECENT_RESET_WINDOW_MS = 60_000;

/** Per-key memory of the last attempt (in memory only; a restart asks again). */
export interface LimitResetMemo {
  notBeforeMs: number;
  recentResetUntilMs: number | null;
  lastOutcome: LimitResetOutcome;
  nextAvailableAt: number | null;
  decidedAt: number;
}

/** What the memo allows at `now`. */
export type MemoCheck =
  { kind: 'recent_reset'; untilMs: number } | { kind: 'memo_skip'; notBeforeMs: number } | { kind: 'attempt' };

/** Steps 1–2 of the attempt: inside the recent window, or before the not-before instant, no network. */
export function checkResetMemo(memo: LimitResetMemo | undefined, now: number): MemoCheck {
  if (memo === undefined) return { kind: 'attempt' };
  if (memo.recentResetUntilMs !== null && now < memo.recentResetUntilMs) {
    return { kind: 'recent_reset', untilMs: memo.recentResetUntilMs };
  }
  if (now < memo.notBeforeMs) return { kind: 'memo_skip', notBeforeMs: memo.notBeforeMs };
  return { kind: 'attempt' };
}

/** The result for an attempt answered from the memo. */
export function memoResult(check: Exclude<MemoCheck, { kind: 'attempt' }>): LimitResetResult {
  if (check.kind === 'recent_reset') {
    return { reset: true, outcome: 'recent_reset', nextAvailableAt: null, reason: describeOutcome('recent_reset') };
  }
  return {
    reset: false,
    outcome: 'memo_skip',
    nextAvailableAt: check.notBeforeMs,
    reason: describeOutcome('memo_skip'),
  };
}

/** What the network part of an attempt found. */
export type AttemptFinding =
  | { kind: 'no_status' }
  | { kind: 'not_offered'; status: ResetStatus }
  | { kind: 'no_organization' }
  | { kind: 'claimed'; claim: ClaimResponse };

function outcomeOf(finding: AttemptFinding): LimitResetOutcome {
  return finding.kind === 'claimed' ? finding.claim.result : finding.kind;
}

function nextAvailableOf(finding: AttemptFinding): number | null {
  if (finding.kind === 'claimed') return finding.claim.nextAvailableAt;
  return finding.kind === 'not_offered' ? finding.status.nextAvailableAt : null;
}

/** RESET-7 (week when not given) for already_used/not_offered/grants; RESET-8 (15 min) otherwise. */
function fallbackWaitMs(outcome: LimitResetOutcome): number {
  const weekly = outcome === 'already_used' || outcome === 'not_offered' || isGranted(outcome);
  return weekly ? RESET_WEEK_MS : RESET_FAILURE_BACKOFF_MS;
}

/** Steps 4–7: the memo to keep and the result to return; an announced future instant beats the fallback. */
export function settleAttempt(
  finding: AttemptFinding,
  now: number,
): { memo: LimitResetMemo; result: LimitResetResult } {
  const outcome = outcomeOf(finding);
  const nextAvailableAt = nextAvailableOf(finding);
  const granted = isGranted(outcome);
  const announced = nextAvailableAt !== null && nextAvailableAt > now ? nextAvailableAt : null;
  const memo: LimitResetMemo = {
    notBeforeMs: announced ?? now + fallbackWaitMs(outcome),
    recentResetUntilMs: granted ? now + RECENT_RESET_WINDOW_MS : null,
    lastOutcome: outcome,
    nextAvailableAt,
    decidedAt: now,
  };
  return { memo, result: { reset: granted, outcome, nextAvailableAt, reason: describeOutcome(outcome) } };
}

/** Step 5's test, exported so the attempt and its tests agree on it. */
export function findingForStatus(status: ResetStatus | null): AttemptFinding | null {
  if (status === null) return { kind: 'no_status' };
  return isResetOffered(status) ? null : { kind: 'not_offered', status };
}
