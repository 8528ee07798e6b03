import { createStore, type StoreApi } from 'zustand/vanilla';
import type { OverviewRange, OverviewSeries, UsageSummary } from '../../src-shared/domain/overview';
import type { ApiClient } from '../api/api-client';
import type { Loadable } from './load-status';

/**
 * The least time between two live refreshes of a range: each request finishing asks for one, and a
 * busy agent finishes several a second. The longer ranges change least per request and cost most.
 */
export const LIVE_REFRESH_MS: Readonly<Record<OverviewRange, number>> = { hour: 2_000, day: 5_000, week: 15_000 };

export interface OverviewState extends Loadable {
  range: OverviewRange;
  series: OverviewSeries | null;
  /** Pools per dimension and Claude windows (`overview.usage`); null until the first answer. */
  usage: UsageSummary | null;
  /** Reads the series of the current range and the usage summary. */
  load(): Promise<void>;
  setRange(range: OverviewRange): Promise<void>;
  /** A request finished: refresh now, or once the range's throttle allows. */
  noteRequest(): void;
  /** Cancels a pending live refresh (the tab went away). */
  dispose(): void;
}

export type OverviewStore = StoreApi<OverviewState>;

/** Made by the Overview tab while it is shown; `activity.request` events reach it through noteRequest(). */
export function createOverviewStore(api: ApiClient, initial: OverviewRange = 'hour'): OverviewStore {
  // Bumped on every range change, so a late answer for the old range is dropped.
  let generation = 0;
  let lastLoadAt = Number.NEGATIVE_INFINITY;
  let pending: ReturnType<typeof setTimeout> | null = null;

  const cancel = (): void => {
    if (pending !== null) clearTimeout(pending);
    pending = null;
  };

  return createStore<OverviewState>()((set, get) => ({
    range: initial,
    series: null,
    usage: null,
    status: 'idle',
    error: null,
    async load() {
      const started = generation;
      const range = get().range;
      lastLoadAt = Date.now();
      if (get().status !== 'ready') set({ status: 'loading', error: null });
      const [series, usage] = await Promise.all([api.call('overview.series', { range }), api.call('overview.usage')]);
      if (generation !== started) return;
      if (!series.ok) return set({ status: 'error', error: series.error });
      // The usage panels are extras: a failure there keeps the last answer rather than hiding the charts.
      set({ series: series.value, status: 'ready', error: null, ...(usage.ok ? { usage: usage.value } : {}) });
    },
    async setRange(range) {
      if (range === get().range && get().status === 'ready') return;
      generation++;
      cancel();
      set({ range, series: null, status: 'loading', error: null });
      await get().load();
    },
    noteRequest() {
      if (pending !== null) return;
      const wait = lastLoadAt + LIVE_REFRESH_MS[get().range] - Date.now();
      if (wait <= 0) {
        void get().load();
        return;
      }
      pending = setTimeout(() => {
        pending = null;
        void get().load();
      }, wait);
    },
    dispose: cancel,
  }));
}
