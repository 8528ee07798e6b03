import { useState } from 'react';
import type { OverviewRange, OverviewSeries, UsageSummary } from '../../../src-shared/domain/overview';
import type { ResourceSpec } from '../../resources/resource';
import { useResource, type ResourceView } from '../../resources/resource-context';

/** With no traffic the window still slides: re-read once a minute so old buckets leave the chart. */
export const SLIDE_REFRESH_MS = 60_000;

/**
 * The least time between two live refreshes of a range: each request finishing asks for one, and a
 * busy agent finishes several a second. The longer ranges change least per request and cost most.
 */
export const LIVE_REFRESH_MS: Readonly<Record<OverviewRange, number>> = { hour: 2_000, day: 5_000, week: 15_000 };

/** The series of one range, refreshed (throttled) after each finished request and once a minute. */
export const overviewSeries = (range: OverviewRange): ResourceSpec<'overview.series'> => ({
  method: 'overview.series',
  input: { range },
  events: { 'activity.request': 'reload' },
  throttleMs: LIVE_REFRESH_MS[range],
  pollMs: SLIDE_REFRESH_MS,
});

/** Pools per dimension and Claude windows; a failed read keeps the last answer rather than hiding the charts. */
export const OVERVIEW_USAGE: ResourceSpec<'overview.usage'> = {
  method: 'overview.usage',
  events: { 'activity.request': 'reload' },
  throttleMs: LIVE_REFRESH_MS.hour,
  pollMs: SLIDE_REFRESH_MS,
};

export interface Overview {
  range: OverviewRange;
  setRange(range: OverviewRange): void;
  series: ResourceView<OverviewSeries>;
  usage: UsageSummary | null;
}

/** The Overview's data for the range picked; a range no longer shown stops refreshing (its late answer is its own). */
export function useOverview(initial: OverviewRange = 'hour'): Overview {
  const [range, setRange] = useState(initial);
  const series = useResource(overviewSeries(range));
  const usage = useResource(OVERVIEW_USAGE).data ?? null;
  return { range, setRange, series, usage };
}
