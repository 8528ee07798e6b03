import { QUOTA_CONFIG_DEFAULTS } from '../../quota/engine/quota-config';

/** `QUOTA_SOFT_DEPRIORITIZE_FACTOR`'s default (QPIPE-7). */
export const DEFAULT_SOFT_PENALTY_FACTOR: number = QUOTA_CONFIG_DEFAULTS.softDeprioritizeFactor;

const clampFactor = (factor: number): number => (Number.isFinite(factor) ? Math.min(1, Math.max(0, factor)) : 1);

/** QPIPE-7 on a higher-is-better score (`auto`): multiplied by the factor. */
export function penalizeMerit(merit: number, factor: number): number {
  return merit * clampFactor(factor);
}

/**
 * QPIPE-7 on a lower-is-better cost (`p2c`): "multiplied by 0.7" must make it worse, and a cost of
 * 0 times anything stays 0, so the factor applies to the cost's merit 1 / (1 + cost) and the result
 * is turned back into a cost: (1 + cost) / factor − 1. Factor 1 changes nothing; factor 0 sends the
 * candidate after every unpenalized one (a finite number, so comparisons stay numbers).
 */
export function penalizeCost(cost: number, factor: number): number {
  const f = clampFactor(factor);
  return f === 0 ? Number.MAX_SAFE_INTEGER : (1 + cost) / f - 1;
}
