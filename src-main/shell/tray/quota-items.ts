import type { QuotaPoolUsage, QuotaUnit, QuotaWindow } from '../../../src-shared/domain/quota';

/** A pool at or above its saturation threshold, as one tray line: its most used dimension. */
export interface TrayQuotaItem {
  pool: string;
  /** 0..1 of the dimension's limit (the provider's figure where it reports one). */
  usedFraction: number;
  unit: QuotaUnit;
  window: QuotaWindow;
}

const WINDOW_WORDS: Readonly<Record<QuotaWindow, string>> = {
  '5h': '5h',
  hourly: 'hourly',
  daily: 'daily',
  weekly: 'weekly',
  monthly: 'monthly',
};
const UNIT_WORDS: Readonly<Record<QuotaUnit, string>> = {
  requests: 'requests',
  tokens: 'tokens',
  usd: 'USD',
  percent: 'usage',
};

/**
 * Pools near saturation: for each, the dimension with the highest use among those at or past the
 * pool's threshold (where keys start being held to their fair share), most used pool first.
 * Dimensions with an unknown limit count only when the provider reported a figure.
 */
export function saturatedPools(usages: readonly QuotaPoolUsage[]): TrayQuotaItem[] {
  const items: TrayQuotaItem[] = [];
  for (const usage of usages) {
    let top: TrayQuotaItem | null = null;
    for (const d of usage.dimensions) {
      const known = d.limit > 0 || d.saturationSource === 'provider';
      if (!known || d.globalUsedPercent < usage.saturationThreshold) continue;
      if (top === null || d.globalUsedPercent > top.usedFraction)
        top = { pool: usage.name, usedFraction: d.globalUsedPercent, unit: d.unit, window: d.window };
    }
    if (top) items.push(top);
  }
  return items.sort((a, b) => b.usedFraction - a.usedFraction || a.pool.localeCompare(b.pool));
}

/** "Quota: team 85 % (5h tokens)". */
export function quotaLine(item: TrayQuotaItem): string {
  return `Quota: ${item.pool} ${Math.round(item.usedFraction * 100)} % (${WINDOW_WORDS[item.window]} ${UNIT_WORDS[item.unit]})`;
}
