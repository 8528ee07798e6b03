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
  const counterTotal = counterTotalOf(dim, d, dimCount, keyCount, pairs, now);
  const used = providerUsed(providerSaturation);
  if (used !== null)
    return { consumedTotal: totalFrom(dim, used, counterTotal), globalUsedPercent: used, saturationSource: 'provider' };
  return {
    consumedTotal: counterTotal,
    globalUsedPercent: counterRatio(dim, counterTotal),
    saturationSource: 'counter',
  };
}

/** `dimensionTotals(…, null).globalUsedPercent` without the object: the counters' utilisation 0..1. */
export function counterUsedPercent(
  dim: PoolDimension,
  d: number,
  dimCount: number,
  keyCount: number,
  pairs: BucketPairs,
  now: number,
): number {
  return counterRatio(dim, counterTotalOf(dim, d, dimCount, keyCount, pairs, now));
}

/** Every key's sliding value of dimension `d` summed: the sums first, the sliding weight once. */
function counterTotalOf(
  dim: PoolDimension,
  d: number,
  dimCount: number,
  keyCount: number,
  pairs: BucketPairs,
  now: number,
): number {
  let sumPrev = 0;
  let sumCurr = 0;
  for (let k = 0, i = d; k < keyCount; k++, i += dimCount) {
    sumPrev += pairs.prev[i] ?? 0;
    sumCurr += pairs.curr[i] ?? 0;
  }
  const elapsed = now - Math.floor(now / dim.windowMs) * dim.windowMs;
  return sumPrev * (1 - elapsed / dim.windowMs) + sumCurr;
}

/** The provider's reported utilisation clamped to 0..1, or null when it reported none usable. */
function providerUsed(providerSaturation: number | null): number | null {
  if (providerSaturation === null || !Number.isFinite(providerSaturation)) return null;
  return Math.min(1, Math.max(0, providerSaturation));
}

/** With a provider report: for `percent` the total is that utilisation × limit, else the counters'. */
function totalFrom(dim: PoolDimension, used: number, counterTotal: number): number {
  return dim.unit === 'percent' ? used * dim.limit : counterTotal;
}

function counterRatio(dim: PoolDimension, counterTotal: number): number {
  return dim.limit > 0 ? Math.min(1, Math.max(0, counterTotal / dim.limit)) : 0;
}

/**
 * The decision inputs of key `keyIndex` over every dimension, from one `readMany` answer. Reuses
 * `out` and the objects in it when given, so the request path allocates nothing per call once warm.
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
  let n = 0;
  for (let d = 0; d < dimCount; d++) {
    const dim = dims[d];
    if (dim === undefined) continue;
    const counterTotal = counterTotalOf(dim, d, dimCount, keyCount, pairs, now);
    const used = providerUsed(providerSaturation[d] ?? null);
    const i = keyIndex * dimCount + d;
    const elapsed = now - Math.floor(now / dim.windowMs) * dim.windowMs;
    const consumed = (pairs.prev[i] ?? 0) * (1 - elapsed / dim.windowMs) + (pairs.curr[i] ?? 0);
    const consumedTotal = used === null ? counterTotal : totalFrom(dim, used, counterTotal);
    const globalUsedPercent = used === null ? counterRatio(dim, counterTotal) : used;
    const o = out[n];
    if (o === undefined) {
      out.push({ key: dim.key, unit: dim.unit, limit: dim.limit, consumedTotal, globalUsedPercent, consumed });
    } else {
      o.key = dim.key;
      o.unit = dim.unit;
      o.limit = dim.limit;
      o.consumedTotal = consumedTotal;
      o.globalUsedPercent = globalUsedPercent;
      o.consumed = consumed;
    }
    n += 1;
  }
  out.length = n;
  return out;
}
