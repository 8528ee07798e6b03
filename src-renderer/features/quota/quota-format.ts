import type {
  QuotaDimension,
  QuotaDimensionsSource,
  QuotaKeyUsage,
  QuotaUnit,
  QuotaWindow,
} from '../../../src-shared/domain/quota';

export const UNIT_LABELS: Readonly<Record<QuotaUnit, string>> = {
  requests: 'requests',
  tokens: 'tokens',
  usd: 'USD',
  percent: 'percent',
};

export const WINDOW_LABELS: Readonly<Record<QuotaWindow, string>> = {
  '5h': '5 hours',
  hourly: 'hour',
  daily: 'day',
  weekly: 'week',
  monthly: 'month (30 days)',
};

export const SOURCE_LABELS: Readonly<Record<QuotaDimensionsSource, string>> = {
  pool: 'set on the pool',
  'manual-plan': "the connection's manual plan",
  catalog: "the connection's catalog plan",
  none: 'none — set dimensions or a plan',
};

/** "1,500 requests / hour", "5h tokens (limit unknown)". */
export function dimensionLabel(d: Pick<QuotaDimension, 'unit' | 'window' | 'limit'>): string {
  const per = `${UNIT_LABELS[d.unit]} / ${WINDOW_LABELS[d.window]}`;
  return d.limit === 0 ? `${per} (limit unknown)` : `${formatAmount(d.limit, d.unit)} ${per}`;
}

/** A consumed amount in its unit: whole numbers for counts, cents for USD, one decimal for percent. */
export function formatAmount(n: number, unit: QuotaUnit): string {
  if (unit === 'usd') return `$${n.toFixed(2)}`;
  if (unit === 'percent') return `${+n.toFixed(1)} %`;
  return Math.round(n).toLocaleString('en-US');
}

export function formatPercent(fraction: number): string {
  return `${Math.round(fraction * 100)} %`;
}

/** What the key's next request would meet, in words. */
export function decisionLabel(decision: QuotaKeyUsage['decision']): string {
  switch (decision) {
    case 'allow':
      return 'allowed';
    case 'penalize':
      return 'allowed, deprioritised';
    case 'fair-share':
      return 'blocked: over its fair share';
    case 'cap-absolute':
      return 'blocked: at its cap';
    case 'global-saturated':
      return 'blocked: pool full';
  }
}

/** A duration as a person reads it: "45 s", "12 min", "3 h 20 min", "2 d". */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return min % 60 === 0 ? `${h} h` : `${h} h ${min % 60} min`;
  return `${Math.round(h / 24)} d`;
}

/** One colour per key, stable by position; chosen to stay apart in light and dark themes. */
const KEY_COLOURS = ['#2f6fdd', '#d9822b', '#2e9e6a', '#b04fc4', '#c7453b', '#1f9bb5', '#8a8d1f', '#7a5cd6'];
export const keyColour = (index: number): string => KEY_COLOURS[index % KEY_COLOURS.length] ?? '#888888';
