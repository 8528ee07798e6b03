import type { QuotaBurnRate } from '../../../src-shared/domain/quota';

/** One observation of a dimension's pool total. */
export interface UsageSample {
  at: number;
  value: number;
}

/** Smoothing of the exponential moving average: the newest interval's share of the estimate. */
export const DEFAULT_BURN_ALPHA = 0.3;

/**
 * The EMA burn rate after each sample, in units per second (0 for the first). A falling total (the
 * window sliding past old consumption) counts as a rate of 0, not negative: the chart shows how fast
 * the key spends, and "time to exhaustion" must not run backwards. Samples at the same or an earlier
 * time than their predecessor are skipped.
 */
export function burnRateSeries(samples: readonly UsageSample[], alpha: number = DEFAULT_BURN_ALPHA): number[] {
  const out = new Array<number>(samples.length).fill(0);
  let ema: number | null = null;
  let last: UsageSample | undefined = samples[0];
  for (let i = 1; i < samples.length; i++) {
    const s = samples[i];
    if (s === undefined || last === undefined) continue;
    const dt = s.at - last.at;
    if (dt > 0) {
      const rate = Math.max(0, ((s.value - last.value) / dt) * 1000);
      ema = ema === null ? rate : alpha * rate + (1 - alpha) * ema;
      last = s;
    }
    out[i] = ema ?? 0;
  }
  return out;
}

/**
 * QPIPE-8: the current burn rate and the time until `limit` is reached at that rate. Fewer than two
 * samples: rate 0 and no estimate. Null when the rate is not positive or the limit is unknown (0).
 */
export function computeBurnRate(
  samples: readonly UsageSample[],
  limit: number,
  alpha: number = DEFAULT_BURN_ALPHA,
): QuotaBurnRate {
  if (samples.length < 2) return { perSecond: 0, timeToExhaustionMs: null, samples: samples.length };
  const series = burnRateSeries(samples, alpha);
  const perSecond = series[series.length - 1] ?? 0;
  const latest = samples[samples.length - 1]?.value ?? 0;
  let timeToExhaustionMs: number | null = null;
  if (perSecond > 0 && limit > 0) timeToExhaustionMs = Math.max(0, ((limit - latest) / perSecond) * 1000);
  return { perSecond, timeToExhaustionMs, samples: samples.length };
}
