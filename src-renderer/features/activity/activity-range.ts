import type { RequestLogFilter } from '../../../src-shared/domain/request-log';

const HOUR = 3_600_000;

/** The time ranges the Activity tab offers; `last` ones move with the clock, custom ones do not. */
export type ActivityRange =
  { kind: 'all' } | { kind: 'last'; ms: number } | { kind: 'custom'; since: number | null; until: number | null };

export const RANGE_PRESETS: readonly { id: string; label: string; range: ActivityRange }[] = [
  { id: 'all', label: 'Any time', range: { kind: 'all' } },
  { id: 'hour', label: 'Last hour', range: { kind: 'last', ms: HOUR } },
  { id: 'day', label: 'Last 24 hours', range: { kind: 'last', ms: 24 * HOUR } },
  { id: 'week', label: 'Last 7 days', range: { kind: 'last', ms: 7 * 24 * HOUR } },
];

/** Which option of the range select shows this range. */
export function rangeId(range: ActivityRange): string {
  if (range.kind === 'custom') return 'custom';
  if (range.kind === 'all') return 'all';
  return RANGE_PRESETS.find((p) => p.range.kind === 'last' && p.range.ms === range.ms)?.id ?? 'all';
}

/** What the Activity tab narrows by: the core's filter, with the time range kept as the person chose it. */
export interface ActivityViewFilter {
  connection?: string;
  model?: string;
  status?: 'ok' | 'error';
  search?: string;
  range: ActivityRange;
}

export const NO_FILTER: ActivityViewFilter = { range: { kind: 'all' } };

/** Whether anything narrows the list (the empty state says "no matching requests" then). */
export function isFiltered(filter: ActivityViewFilter): boolean {
  return (
    filter.connection !== undefined ||
    filter.model !== undefined ||
    filter.status !== undefined ||
    (filter.search ?? '').trim() !== '' ||
    filter.range.kind !== 'all'
  );
}

/** The filter as `activity.list` takes it at `now`; empty fields left out, so the core sees only what narrows. */
export function toLogFilter(filter: ActivityViewFilter, now: number): RequestLogFilter {
  const out: RequestLogFilter = {};
  if (filter.connection) out.connection = filter.connection;
  if (filter.model) out.model = filter.model;
  if (filter.status) out.status = filter.status;
  const search = (filter.search ?? '').trim();
  if (search !== '') out.search = search;
  const { range } = filter;
  if (range.kind === 'last') out.since = Math.max(0, Math.round(now - range.ms));
  if (range.kind === 'custom') {
    if (range.since !== null) out.since = range.since;
    if (range.until !== null) out.until = range.until;
  }
  return out;
}

/** `<input type="datetime-local">` text ↔ epoch ms, in the person's own time zone. */
export function fromLocalInput(value: string): number | null {
  if (value === '') return null;
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? ms : null;
}

export function toLocalInput(ms: number | null): string {
  if (ms === null) return '';
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
