import type { TargetExclusion } from '../../../src-shared/domain/cooldown';
import {
  attemptEntryOf,
  DECISION_MAX_ENTRIES,
  type DecisionEntry,
  type DecisionRecord,
  type DecisionSkip,
} from '../../../src-shared/domain/decision';
import type { RequestTrail } from './trail';

/**
 * Whether the record is the one the activity row implies (`impliedDecision`): nothing skipped,
 * held, queued or thrown away, so only its attempts (which the row keeps) say anything. Then it is
 * not stored, and the read rebuilds it from the row.
 */
export function impliedByRow(trail: RequestTrail): boolean {
  return (
    trail.skipped.length === 0 &&
    (trail.lateSkips === null || trail.lateSkips.length === 0) &&
    trail.held === null &&
    Math.round(trail.queuedMs) === 0 &&
    trail.cacheLost === null &&
    trail.attempts.every((a) => a.ms === undefined || Number.isInteger(a.ms))
  );
}

/**
 * Issue 24 §1: the request's decision record, from what the stages already computed: the screens'
 * exclusions (trail.skipped, late ones at their place among the attempts) and the attempts. Made
 * once, when the request is logged; at most DECISION_MAX_ENTRIES entries.
 */
export function decisionOf(trail: RequestTrail, served: string | null, status: number, now: number): DecisionRecord {
  const entries: DecisionEntry[] = [];
  let total = 0;
  const add = (entry: () => DecisionEntry): void => {
    total += 1;
    if (entries.length < DECISION_MAX_ENTRIES) entries.push(entry());
  };
  const late = trail.lateSkips;
  const lateSet = late === null ? null : new Set(late.map(([, e]) => e));
  for (const e of trail.skipped) if (lateSet === null || !lateSet.has(e)) add(() => skipOf(e, now));
  let next = 0;
  trail.attempts.forEach((attempt, i) => {
    for (; late !== null && next < late.length && (late[next]?.[0] ?? 0) <= i; next++) {
      const skip = late[next]?.[1];
      if (skip) add(() => skipOf(skip, now));
    }
    add(() => attemptEntryOf(attempt));
  });
  for (; late !== null && next < late.length; next++) {
    const skip = late[next]?.[1];
    if (skip) add(() => skipOf(skip, now));
  }
  return {
    served,
    status,
    heldMs: trail.held === null ? 0 : Math.round(trail.held.heldMs),
    queuedMs: Math.round(trail.queuedMs),
    entries,
    omitted: total - entries.length,
    cacheLost: trail.cacheLost,
  };
}

function skipOf(e: TargetExclusion, now: number): DecisionSkip {
  return {
    kind: 'skipped',
    connection: e.connection,
    model: e.model,
    reason: e.reason,
    retryAfterSeconds: e.retryAfterSeconds,
    until: e.retryAfterSeconds === null ? null : now + e.retryAfterSeconds * 1000,
    detail: e.detail ?? null,
  };
}
