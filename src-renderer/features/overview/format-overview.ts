import type { OverviewRange } from '../../../src-shared/domain/overview';

/** The range picker's labels. */
export const RANGE_LABELS: Readonly<Record<OverviewRange, string>> = {
  hour: 'Last hour',
  day: 'Last day',
  week: 'Last week',
};

/** What one bucket is, for captions: "per minute". */
export const BUCKET_LABELS: Readonly<Record<OverviewRange, string>> = {
  hour: 'per minute',
  day: 'per 15 minutes',
  week: 'per hour',
};

/** A count for a tile or legend: 950, 12.3k, 4.1M. */
export function formatCount(n: number): string {
  const abs = Math.abs(n);
  if (abs < 1_000) return String(Math.round(n));
  if (abs < 1_000_000) return `${+(n / 1_000).toFixed(abs < 10_000 ? 1 : 0)}k`;
  return `${+(n / 1_000_000).toFixed(abs < 10_000_000 ? 1 : 0)}M`;
}

/** A fraction as a percentage with one decimal below 10 %: "0.5 %", "12 %"; "—" when unknown. */
export function formatRate(rate: number | null): string {
  if (rate === null) return '—';
  const pct = rate * 100;
  return `${pct > 0 && pct < 10 ? pct.toFixed(1) : Math.round(pct)} %`;
}

/** A latency: "850 ms", "2.4 s", "—" when unknown. */
export function formatMs(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  return `${+(ms / 1_000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** How far away a moment is: "in 42 min", "in 3 h 5 min", "in 2 d 4 h"; "now" once passed. */
export function formatResetsIn(at: number, now: number): string {
  const minutes = Math.ceil((at - now) / 60_000);
  if (minutes <= 0) return 'now';
  if (minutes < 60) return `in ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `in ${hours} h${minutes % 60 === 0 ? '' : ` ${minutes % 60} min`}`;
  return `in ${Math.floor(hours / 24)} d${hours % 24 === 0 ? '' : ` ${hours % 24} h`}`;
}
