import type { AppError } from '../../../src-shared/contract/errors';
import {
  decideFairShare,
  FAIR_SHARE_ALLOW,
  FAIR_SHARE_PENALIZE,
  fairShareOutcome,
  type FairShareCost,
} from '../engine/fair-share';
import { counterUsedPercent, fairShareDimensionsFor } from '../engine/pool-dimensions';
import { msUntilBelow } from '../engine/sliding-window';
import type { BucketPairs } from '../quota-ports';
import type { IndexedPool } from './pool-index';
import { quotaExceededError } from './quota-error';
import { SATURATION_TTL_MS, type WindowReadings } from './window-readings';

/** What the pre-check tells the request path (QPIPE-2): go, go but demoted (soft), or the 429. */
export type QuotaVerdict = { kind: 'allow'; penalized: boolean } | { kind: 'block'; error: AppError };

/** The allow verdicts, shared: a verdict is read, never changed, and the allow path is every request's. */
const ALLOW: QuotaVerdict = Object.freeze({ kind: 'allow', penalized: false });
const ALLOW_PENALIZED: QuotaVerdict = Object.freeze({ kind: 'allow', penalized: true });

/** Where the providers' fresh reports come from (the runtime's saturation cache). */
export type ReportedSaturation = Pick<WindowReadings, 'poolFraction'>;

/**
 * Per dimension, the utilisation the decision uses: the larger of the counters' and the provider's
 * fresh report (QPIPE-6: the report corrects counters that drifted; it never lowers them). Null when
 * the provider reported nothing, so the engine reads the counters alone. Written into `out`.
 */
export function effectiveSaturation(
  ip: IndexedPool,
  pairs: BucketPairs,
  now: number,
  reported: ReportedSaturation,
  out: (number | null)[] = [],
): (number | null)[] {
  const dimCount = ip.dims.length;
  out.length = dimCount;
  for (let d = 0; d < dimCount; d++) {
    const dim = ip.dims[d];
    const r = dim === undefined ? null : reported.poolFraction(ip.pool.connectionIds, dim, now);
    if (dim === undefined || r === null) {
      out[d] = null;
      continue;
    }
    const counter = counterUsedPercent(dim, d, dimCount, ip.keyIds.length, pairs, now);
    out[d] = Math.max(r, counter);
  }
  return out;
}

function sumBuckets(pairs: BucketPairs, d: number, dimCount: number, keyCount: number) {
  let prev = 0;
  let curr = 0;
  for (let k = 0, i = d; k < keyCount; k++, i += dimCount) {
    prev += pairs.prev[i] ?? 0;
    curr += pairs.curr[i] ?? 0;
  }
  return { prev, curr };
}

/**
 * Decides one key's request on its pool from one `readMany` answer. A block carries Retry-After:
 * when enough of the window will have slid by for this request to fit (the key's own counter for a
 * share or cap, the pool's total for a full pool); a provider-reported percentage cannot be
 * predicted, so it is looked at again when the report goes stale.
 */
export function decideForKey(
  ip: IndexedPool,
  keyIndex: number,
  pairs: BucketPairs,
  cost: FairShareCost,
  saturation: readonly (number | null)[],
  threshold: number,
  now: number,
): QuotaVerdict {
  const allocation = ip.pool.allocations[keyIndex];
  if (allocation === undefined) return ALLOW;
  const dimCount = ip.dims.length;
  const keyCount = ip.keyIds.length;
  const dimensions = fairShareDimensionsFor(ip.dims, pairs, keyCount, keyIndex, now, saturation, ip.scratch.dimensions);
  // The common case decides on numbers alone; only a block builds the evaluations it reports.
  const outcome = fairShareOutcome(dimensions, allocation, threshold, cost);
  if (outcome === FAIR_SHARE_ALLOW) return ALLOW;
  if (outcome === FAIR_SHARE_PENALIZE) return ALLOW_PENALIZED;
  const decision = decideFairShare({ dimensions, allocation, saturationThreshold: threshold, cost });
  if (decision.kind === 'allow') return decision.penalized ? ALLOW_PENALIZED : ALLOW;

  const evaluation = decision.dimension;
  const d = ip.dims.findIndex((x) => x.key === evaluation.key);
  const dim = ip.dims[d];
  const amount =
    evaluation.unit === 'requests'
      ? cost.requests
      : evaluation.unit === 'tokens'
        ? cost.tokens
        : evaluation.unit === 'usd'
          ? cost.usd
          : 0;
  let retryAfterMs: number | null = null;
  if (dim !== undefined) {
    const i = keyIndex * dimCount + d;
    const providerDriven = dim.unit === 'percent' && (saturation[d] ?? null) !== null;
    if (providerDriven) retryAfterMs = SATURATION_TTL_MS;
    else if (decision.reason === 'global-saturated') {
      const total = sumBuckets(pairs, d, dimCount, keyCount);
      retryAfterMs = msUntilBelow(total.prev, total.curr, now, dim.windowMs, dim.limit - amount);
    } else {
      const ceiling = decision.reason === 'cap-absolute' ? (allocation.capValue ?? 0) : evaluation.fairShare;
      retryAfterMs = msUntilBelow(pairs.prev[i] ?? 0, pairs.curr[i] ?? 0, now, dim.windowMs, ceiling - amount);
    }
    // Never 0 (the client would hammer) and never past the window (by then every bucket has slid out).
    retryAfterMs = Math.min(dim.windowMs, Math.max(1_000, retryAfterMs ?? dim.windowMs));
  }
  return {
    kind: 'block',
    error: quotaExceededError({
      pool: ip.pool.name,
      key: allocation.keyName,
      policy: allocation.policy,
      reason: decision.reason,
      evaluation,
      window: dim?.window ?? null,
      retryAfterMs: retryAfterMs ?? 60_000,
    }),
  };
}
