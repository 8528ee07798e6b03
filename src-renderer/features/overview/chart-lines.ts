import type { OverviewGroup, OverviewSeries } from '../../../src-shared/domain/overview';

/** One line of a chart: its label, colour and one value per bucket (null: nothing to plot there). */
export interface ChartLine {
  label: string;
  color: string;
  values: (number | null)[];
  /** The line's total over the range, shown in the legend. */
  total: number;
  /** Join across empty buckets (latency has none where no request ran). */
  spanGaps?: boolean;
}

export type GroupBy = 'connection' | 'key';
export type GroupMetric = 'requests' | 'tokens';

/** Distinct in light and dark mode, one per named group; the "Other" group takes the grey. */
export const PALETTE = [
  '#2f6fdd',
  '#e8590c',
  '#2f9e44',
  '#ae3ec9',
  '#f59f00',
  '#1098ad',
  '#e03131',
  '#5c7cfa',
] as const;
const OTHER_COLOR = '#868e96';

/** How a group is named in a legend: refused requests have no connection, keyless ones no key. */
export function groupLabel(group: Pick<OverviewGroup, 'name' | 'other'>, by: GroupBy): string {
  if (group.other) return 'Other';
  if (group.name !== null) return group.name;
  return by === 'connection' ? '(no connection)' : '(no key)';
}

/** One line per connection or key, busiest first, for requests or tokens. */
export function groupLines(series: OverviewSeries, by: GroupBy, metric: GroupMetric): ChartLine[] {
  const groups = by === 'connection' ? series.byConnection : series.byKey;
  return groups.map((g, i) => ({
    label: groupLabel(g, by),
    color: g.other ? OTHER_COLOR : (PALETTE[i % PALETTE.length] ?? OTHER_COLOR),
    values: g[metric],
    total: g.total[metric],
  }));
}

/** Error and failover rates per bucket in percent; null where the bucket had no requests. */
export function rateLines(series: OverviewSeries): ChartLine[] {
  const { requests, errors, failovers } = series.totals;
  const pct = (part: number[]): (number | null)[] =>
    requests.map((n, i) => (n > 0 ? Math.round(((part[i] ?? 0) / n) * 1000) / 10 : null));
  return [
    { label: 'Errors', color: '#e03131', values: pct(errors), total: series.summary.errors, spanGaps: true },
    { label: 'Failovers', color: '#f59f00', values: pct(failovers), total: series.summary.failovers, spanGaps: true },
  ];
}

/** p50 and p95 latency per bucket, in milliseconds. */
export function latencyLines(series: OverviewSeries): ChartLine[] {
  return [
    { label: 'p50', color: '#2f6fdd', values: series.totals.p50Ms, total: series.summary.p50Ms ?? 0, spanGaps: true },
    { label: 'p95', color: '#ae3ec9', values: series.totals.p95Ms, total: series.summary.p95Ms ?? 0, spanGaps: true },
  ];
}
