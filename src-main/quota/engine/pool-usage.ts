import type { QuotaDimensionUsage, QuotaKeyUsage } from '../../../src-shared/domain/quota';
import type { BucketPairs, ResolvedPool } from '../quota-ports';
import { burnRateSeries, computeBurnRate, type UsageSample } from './burn-rate';
import { decideFairShare, type FairShareCost } from './fair-share';
import { dimensionTotals, type PoolDimension } from './pool-dimensions';
import { slidingValue } from './sliding-window';

export interface PoolUsageInput {
  pool: ResolvedPool;
  /** The pool's dimensions (see `poolDimensionsOf`), in the order `pairs` was read with. */
  dimensions: readonly PoolDimension[];
  /** `readMany(pool.allocations' keyIds, dimensions, now)`: index `k * dimensions.length + d`. */
  pairs: BucketPairs;
  /** Per dimension: the provider's reported utilisation 0..1, or null. */
  providerSaturation: readonly (number | null)[];
  /** Per dimension: the pool-total samples, oldest first (the caller's ring). */
  history: readonly (readonly UsageSample[])[];
  saturationThreshold: number;
  now: number;
}

/** The request a key's "next request" decision assumes: one request, nothing known of its size. */
const NEXT_REQUEST: FairShareCost = { requests: 1, tokens: 0, usd: 0 };

/**
 * The usage snapshot of one pool (QUI-5/6/7, GET /api/quota/pools/:id/usage): per dimension the
 * pool total, mode and burn rate, and per key its consumption against its fair share with the
 * decision its next request would meet on that dimension alone. Pure: the caller read the buckets.
 */
export function buildPoolUsage(input: PoolUsageInput): QuotaDimensionUsage[] {
  const { pool, dimensions, pairs, now } = input;
  const dimCount = dimensions.length;
  const keyCount = pool.allocations.length;
  const out: QuotaDimensionUsage[] = [];

  for (let d = 0; d < dimCount; d++) {
    const dim = dimensions[d];
    if (dim === undefined) continue;
    const totals = dimensionTotals(dim, d, dimCount, keyCount, pairs, now, input.providerSaturation[d] ?? null);
    const mode = totals.globalUsedPercent >= input.saturationThreshold ? 'strict' : 'generous';
    const keys: QuotaKeyUsage[] = pool.allocations.map((a, k) => {
      const i = k * dimCount + d;
      const consumed = slidingValue(pairs.prev[i] ?? 0, pairs.curr[i] ?? 0, now, dim.windowMs);
      const fairShare = (a.effectiveWeight / 100) * dim.limit;
      const verdict = decideFairShare({
        dimensions: [{ key: dim.key, unit: dim.unit, limit: dim.limit, consumed, ...totals }],
        allocation: a,
        saturationThreshold: input.saturationThreshold,
        cost: NEXT_REQUEST,
      });
      const decision = verdict.kind === 'block' ? verdict.reason : verdict.penalized ? 'penalize' : 'allow';
      return {
        keyId: a.keyId,
        key: a.keyName,
        policy: a.policy,
        effectiveWeight: a.effectiveWeight,
        consumed,
        fairShare,
        remaining: fairShare - consumed,
        deficit: consumed - fairShare,
        borrowing: mode === 'generous' && dim.limit > 0 && consumed > fairShare,
        decision,
      };
    });
    const samples = input.history[d] ?? [];
    const series = burnRateSeries(samples);
    out.push({
      dimensionKey: dim.key,
      unit: dim.unit,
      window: dim.window,
      windowMs: dim.windowMs,
      limit: dim.limit,
      consumedTotal: totals.consumedTotal,
      globalUsedPercent: totals.globalUsedPercent,
      saturationSource: totals.saturationSource,
      mode,
      keys,
      burnRate: computeBurnRate(samples, dim.limit),
      history: samples.map((s, i) => ({ at: s.at, consumedTotal: s.value, perSecond: series[i] ?? 0 })),
    });
  }
  return out;
}
