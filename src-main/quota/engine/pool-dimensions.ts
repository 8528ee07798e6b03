import type { QuotaDimension, QuotaUnit, QuotaWindow } from '../../../src-shared/domain/quota';
import { QUOTA_WINDOW_MS } from '../../../src-shared/domain/quota';
import type { BucketPairs } from '../quota-ports';
import type { FairShareDimension } from './fair-share';
import { dimensionKeyOf } from './sliding-window';

/** A pool dimension with its counter address and window length resolved once per pool change. */
export interface PoolDimension {
  key: string;
  unit: QuotaUnit;
  window: QuotaWindow;
  windowMs: number;
  /** The pool's limit: the plan's limit × the number of accounts. 0 = unknown. */
  limit: number;
}

/**
 * A pool's dimensions as the engine uses them. `accountCount` multiplies each limit (REFERENCE §12.4
 * step 4: a pool over two accounts of one plan has twice the capacity); pass 1 when the dimensions
 * already state the pool's total.
 */
export function poolDimensionsOf(
  poolId: string,
  dimensions: readonly QuotaDimension[],
  accountCount: number = 1,
): PoolDimension[] {
  const accounts = Math.max(1, Math.floor(accountCount));
  return dimensions.map((d) => ({
    key: dimensionKeyOf(poolId, d.unit, d.window),
    unit: d.unit,
    window: d.window,
    windowMs: QUOTA_WINDOW_MS[d.window],
    limit: d.limit * accounts,
  }));
}

/** The pool total and utilisation of one dimension from every key's buckets (REFERENCE §12.4 step 4). */
export interface DimensionTotals {
  consumedTotal: number;
  globalUsedPercent: number;
  saturationSource: 'counter' | 'provider';
}

/**
 * Sums dimension `d` over all `keyCount` keys of `pairs` (index `k * dimCount + d`, as `readMany`
 * returns them) and applies the sliding weight once. The provider's own utilisation (0..1) wins over
 * the counter's when given (QPIPE-6); for `percent` the total is then that utilisation × limit.
 */
export function dimensionTotals(
  dim: PoolDimension,
  d: number,
  dimCount: number,
  keyCount: number,
  pairs: BucketPairs,
  now: number,
  providerSaturation: number | null,
): DimensionTotals {
  let sumPrev = 0;
  let sumCurr = 0;
  for (let k = 0, i = d; k < keyCount; k++, i += dimCount) {
    sumPrev += pairs.prev[i] ?? 0;
    sumCurr += pairs.curr[i] ?? 0;
  }
  const elapsed = now - Math.floor(now / dim.windowMs) * dim.windowMs;
  const counterTotal = sumPrev * (1 - elapsed / dim.windowMs) + sumCurr;
  if (providerSaturation !== null && Number.isFinite(providerSaturation)) {
    const used = Math.min(1, Math.max(0, providerSaturation));
    const consumedTotal = dim.unit === 'percent' ? used * dim.limit : counterTotal;
    return { consumedTotal, globalUsedPercent: used, saturationSource: 'provider' };
  }
  const ratio = dim.limit > 0 ? Math.min(1, Math.max(0, counterTotal / dim.limit)) : 0;
  return { consumedTotal: counterTotal, globalUsedPercent: ratio, saturationSource: 'counter' };
}

/**
 * The decision inputs of key `keyIndex` over every dimension, from one `readMany` answer. Reuses
 * `out` when given so the request path allocates nothing per call once warm.
 */
export function fairShareDimensionsFor(
  dims: readonly PoolDimension[],
  pairs: BucketPairs,
  keyCount: number,
  keyIndex: number,
  now: number,
  providerSaturation: readonly (number | null)[],
  out: FairShareDimension[] = [],
): FairShareDimension[] {
  const dimCount = dims.length;
  out.length = 0;
  for (let d = 0; d < dimCount; d++) {
    const dim = dims[d];
    if (dim === undefined) continue;
    const totals = dimensionTotals(dim, d, dimCount, keyCount, pairs, now, providerSaturation[d] ?? null);
    const i = keyIndex * dimCount + d;
    const elapsed = now - Math.floor(now / dim.windowMs) * dim.windowMs;
    const consumed = (pairs.prev[i] ?? 0) * (1 - elapsed / dim.windowMs) + (pairs.curr[i] ?? 0);
    out.push({
      key: dim.key,
      unit: dim.unit,
      limit: dim.limit,
      consumedTotal: totals.consumedTotal,
      globalUsedPercent: totals.globalUsedPercent,
      consumed,
    });
  }
  return out;
}
