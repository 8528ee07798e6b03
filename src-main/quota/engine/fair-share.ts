import type { QuotaBlockReason, QuotaMode, QuotaUnit } from '../../../src-shared/domain/quota';

/**
 * The fair-share decision (QFAIR-3..10, REFERENCE §12.3): one key's next request against every
 * dimension of its pool. Pure and allocation-light: it runs on the request path for every request.
 */

/** One dimension as the decision sees it; `consumed` is this key's sliding value. */
export interface FairShareDimension {
  /** `<poolId>:<unit>:<window>`. */
  key: string;
  unit: QuotaUnit;
  /** The pool's limit; 0 = unknown (a catalog entry without a number): skipped. */
  limit: number;
  /** Every key's sliding value summed (for `percent`: globalUsedPercent × limit). */
  consumedTotal: number;
  /** 0..1: drives generous vs strict (QFAIR-3). */
  globalUsedPercent: number;
  consumed: number;
}

export interface FairShareAllocation {
  /** Percent of each dimension's limit, already equalised (see `effectiveWeights`). */
  effectiveWeight: number;
  /** A string so an unknown value from storage is handled: treated as `hard` (fail-safe). */
  policy: string;
  capValue: number | null;
  capUnit: QuotaUnit | null;
}

/** What this request is expected to add, per unit (see cost-estimate.ts); percent adds nothing up front. */
export interface FairShareCost {
  requests: number;
  tokens: number;
  usd: number;
}

export interface FairShareInput {
  dimensions: readonly FairShareDimension[];
  allocation: FairShareAllocation;
  saturationThreshold: number;
  /** Omitted: 0 of everything, i.e. exactly the reference's `consumed ≥ allowed` tests. */
  cost?: FairShareCost;
}

export type FairShareDimensionDecision = 'allow' | 'penalize' | QuotaBlockReason;

/** Why a dimension decided as it did: enough for `leeway.details` and Retry-After. */
export interface FairShareEvaluation {
  key: string;
  unit: QuotaUnit;
  limit: number;
  mode: QuotaMode;
  consumed: number;
  consumedTotal: number;
  fairShare: number;
  /** The most this key may reach on this dimension before it is blocked. */
  maxAllowed: number;
  /** fairShare − consumed (QFAIR-4). */
  remaining: number;
  decision: FairShareDimensionDecision;
}

export type FairShareDecision =
  | { kind: 'allow'; penalized: boolean; evaluations: FairShareEvaluation[] }
  | { kind: 'block'; reason: QuotaBlockReason; dimension: FairShareEvaluation; evaluations: FairShareEvaluation[] };

function costIn(unit: QuotaUnit, cost: FairShareCost | undefined): number {
  if (cost === undefined) return 0;
  switch (unit) {
    case 'requests':
      return cost.requests;
    case 'tokens':
      return cost.tokens;
    case 'usd':
      return cost.usd;
    case 'percent':
      return 0;
  }
}

/**
 * Whether a request that would add `cost` to `used` goes past `allowed`. Two tests, on purpose:
 * `used ≥ allowed` is the reference's rule (a key at its share is held, so a 50/50 split of 20/hour
 * stops a key at 10 — the 11th request is refused), and `used + cost > allowed` also refuses the
 * request that would cross the line from below (a sliding value of 9.6 plus one request). QFAIR-5's
 * literal `consumed > share` would let the 11th through, which is not a fair share.
 */
function exceeds(used: number, cost: number, allowed: number): boolean {
  return used >= allowed || used + cost > allowed;
}

type Policy = 'hard' | 'soft' | 'burst';

/** A string from storage as a policy: an unknown value is `hard` (fail-safe). */
function policyOf(allocation: FairShareAllocation): Policy {
  return allocation.policy === 'soft' || allocation.policy === 'burst' ? allocation.policy : 'hard';
}

/** The absolute cap on this dimension (QFAIR-9), or null when the key has none in this unit. */
function capOf(allocation: FairShareAllocation, dim: FairShareDimension): number | null {
  return allocation.capUnit === dim.unit ? allocation.capValue : null;
}

/** The borrowing ceiling (QFAIR-8): the pool limit less what the other keys hold. */
function borrowCeilingOf(dim: FairShareDimension): number {
  return dim.limit - Math.max(0, dim.consumedTotal - dim.consumed);
}

/**
 * One dimension's decision, in order: absolute cap (QFAIR-9) → pool limit as hard ceiling (QFAIR-8,
 * burst too) → strict mode holds hard keys to their share and penalises soft ones (QFAIR-5/6) →
 * generous mode lets hard keys borrow up to `limit − consumedByOthers` and penalises soft ones over
 * share; burst ignores shares (QFAIR-7). Numbers only: nothing is allocated.
 */
function judge(
  dim: FairShareDimension,
  allocation: FairShareAllocation,
  policy: Policy,
  threshold: number,
  amount: number,
): FairShareDimensionDecision {
  const { limit, consumed, consumedTotal } = dim;
  const fairShare = (allocation.effectiveWeight / 100) * limit;
  const strict = dim.globalUsedPercent >= threshold;
  const cap = capOf(allocation, dim);
  if (cap !== null && exceeds(consumed, amount, cap)) return 'cap-absolute';
  if (exceeds(consumedTotal, amount, limit)) return 'global-saturated';
  if (policy === 'hard') {
    if (strict && exceeds(consumed, amount, fairShare)) return 'fair-share';
    if (exceeds(consumed, amount, borrowCeilingOf(dim))) return 'global-saturated';
  } else if (policy === 'soft' && exceeds(consumed, amount, fairShare)) return 'penalize';
  return 'allow';
}

/** Why `judge` decided as it did, for `leeway.details` and Retry-After. */
function evaluationOf(
  dim: FairShareDimension,
  allocation: FairShareAllocation,
  policy: Policy,
  threshold: number,
  decision: FairShareDimensionDecision,
): FairShareEvaluation {
  const { limit, consumed, consumedTotal } = dim;
  const fairShare = (allocation.effectiveWeight / 100) * limit;
  const mode: QuotaMode = dim.globalUsedPercent >= threshold ? 'strict' : 'generous';
  const borrowCeiling = borrowCeilingOf(dim);
  const cap = capOf(allocation, dim);
  let maxAllowed = policy === 'hard' && mode === 'strict' ? Math.min(fairShare, borrowCeiling) : borrowCeiling;
  if (cap !== null && cap < maxAllowed) maxAllowed = cap;
  return {
    key: dim.key,
    unit: dim.unit,
    limit,
    mode,
    consumed,
    consumedTotal,
    fairShare,
    maxAllowed,
    remaining: fairShare - consumed,
    decision,
  };
}

/** `decideFairShare`'s outcome without its evaluations: allow, allow penalized, or the blocking dimension. */
export const FAIR_SHARE_ALLOW = -1;
export const FAIR_SHARE_PENALIZE = -2;

/**
 * What `decideFairShare` would decide, as a number (the request path's common case allocates
 * nothing): `FAIR_SHARE_ALLOW`, `FAIR_SHARE_PENALIZE`, or the index in `dimensions` of the first
 * blocking dimension, whose evaluation `decideFairShare` then gives.
 */
export function fairShareOutcome(
  dimensions: readonly FairShareDimension[],
  allocation: FairShareAllocation,
  saturationThreshold: number,
  cost: FairShareCost | undefined,
): number {
  const policy = policyOf(allocation);
  let penalized = false;
  for (let i = 0; i < dimensions.length; i++) {
    const dim = dimensions[i];
    if (dim === undefined || !(dim.limit > 0)) continue;
    const decision = judge(dim, allocation, policy, saturationThreshold, costIn(dim.unit, cost));
    if (decision === 'penalize') penalized = true;
    else if (decision !== 'allow') return i;
  }
  return penalized ? FAIR_SHARE_PENALIZE : FAIR_SHARE_ALLOW;
}

/**
 * Decides one request (QFAIR-10): every dimension with a known limit is evaluated on its own (see
 * `judge`); the first blocking one blocks, any soft excess penalises, and no dimensions at all allows.
 */
export function decideFairShare(input: FairShareInput): FairShareDecision {
  const { allocation, cost } = input;
  const threshold = input.saturationThreshold;
  const policy = policyOf(allocation);
  const evaluations: FairShareEvaluation[] = [];
  let penalized = false;

  for (let i = 0; i < input.dimensions.length; i++) {
    const dim = input.dimensions[i];
    if (dim === undefined || !(dim.limit > 0)) continue;
    const decision = judge(dim, allocation, policy, threshold, costIn(dim.unit, cost));
    const evaluation = evaluationOf(dim, allocation, policy, threshold, decision);
    evaluations.push(evaluation);
    if (decision === 'penalize') penalized = true;
    else if (decision !== 'allow') return { kind: 'block', reason: decision, dimension: evaluation, evaluations };
  }
  return { kind: 'allow', penalized, evaluations };
}
