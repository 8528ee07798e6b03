import type { AppError } from '../../../src-shared/contract/errors';
import { decideFairShare, type FairShareCost, type FairShareDimension } from '../engine/fair-share';
import { dimensionTotals } from '../engine/pool-dimensions';
import { msUntilBelow } from '../engine/sliding-window';
import type { BucketPairs } from '../quota-ports';
import type { IndexedPool } from './pool-index';
import { quotaExceededError } from './quota-error';
import { SATURATION_TTL_MS } from './saturation-cache';

/** What the pre-check tells the request path (QPIPE-2): go, go but demoted (soft), or the 429. */
export type QuotaVerdict = { kind: 'allow'; penalized: boolean } | { kind: 'block'; error: AppError };

/**
 * Per dimension, the utilisation the decision uses: the larger of the counters' and the provider's
 * fresh report (QPIPE-6: the report corrects counters that drifted; it never lowers them). Null when
 * the provider reported nothing, so the engine reads the counters alone.
 */
export function effectiveSaturation(
  ip: IndexedPool,
  pairs: BucketPairs,
  now: number,
  reported: (dimIndex: number) => number | null,
): (number | null)[] {
  const out: (number | null)[] = [];
  const dimCount = ip.dims.length;
  for (let d = 0; d < dimCount; d++) {
    const dim = ip.dims[d];
    const r = reported(d);
    if (dim === undefined || r === null) {
      out.push(null);
      continue;
    }
    const counter = dimensionTotals(dim, d, dimCount, ip.keyIds.length, pairs, now, null).globalUsedPercent;
    out.push(Math.max(r, counter));
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
  if (allocation === undefined) return { kind: 'allow', penalized: false };
  const dimCount = ip.dims.length;
  const keyCount = ip.keyIds.length;
  const dimensions: FairShareDimension[] = [];
  for (let d = 0; d < dimCount; d++) {
    const dim = ip.dims[d];
    if (dim === undefined) continue;
    const totals = dimensionTotals(dim, d, dimCount, keyCount, pairs, now, saturation[d] ?? null);
    const i = keyIndex * dimCount + d;
    const elapsed = now - Math.floor(now / dim.windowMs) * dim.windowMs;
    const consumed = (pairs.prev[i] ?? 0) * (1 - elapsed / dim.windowMs) + (pairs.curr[i] ?? 0);
    dimensions.push({
      key: dim.key,
      unit: dim.unit,
      limit: dim.limit,
      consumedTotal: totals.consumedTotal,
      globalUsedPercent: totals.globalUsedPercent,
      consumed,
    });
  }
  const decision = decideFairShare({ dimensions, allocation, saturationThreshold: threshold, cost });
  if (decision.kind === 'allow') return { kind: 'allow', penalized: decision.penalized };

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
