import { useEffect, useState } from 'react';
import type { ActivitySummary } from '../../../src-shared/contract/methods';
import { onEventType } from '../../api/api-client';
import { useApi } from '../../api/api-context';

/** After live increments, the core's own count is read again this much later, so the figure converges. */
export const TODAY_RESYNC_MS = 5_000;

function startOfLocalDay(at: number): number {
  const d = new Date(at);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

function nextLocalMidnight(at: number): number {
  const d = new Date(startOfLocalDay(at));
  d.setDate(d.getDate() + 1);
  return d.getTime();
}

/**
 * Today's requests and errors (local day, as `activity.summary` counts them): read once, counted up by
 * each `activity.request`, re-read a few seconds after traffic, after an event-stream gap and at midnight.
 */
export function useRequestsToday(): ActivitySummary | null {
  const api = useApi();
  const [summary, setSummary] = useState<ActivitySummary | null>(null);
  useEffect(() => {
    let live = true;
    let resync: ReturnType<typeof setTimeout> | null = null;
    let midnight: ReturnType<typeof setTimeout> | null = null;
    const read = (): void => {
      void api.call('activity.summary').then((result) => {
        if (live && result.ok) setSummary(result.value);
      });
    };
    const armMidnight = (): void => {
      midnight = setTimeout(
        () => {
          setSummary({ requestsToday: 0, errorsToday: 0 });
          read();
          armMidnight();
        },
        Math.max(1_000, nextLocalMidnight(Date.now()) - Date.now()),
      );
    };
    const offRequest = onEventType(api, 'activity.request', ({ entry }) => {
      if (entry.ts < startOfLocalDay(Date.now())) return;
      const error = entry.status >= 400 ? 1 : 0;
      setSummary((s) => s && { requestsToday: s.requestsToday + 1, errorsToday: s.errorsToday + error });
      resync ??= setTimeout(() => {
        resync = null;
        read();
      }, TODAY_RESYNC_MS);
    });
    const offReconnect = api.onReconnect(read);
    read();
    armMidnight();
    return () => {
      live = false;
      offRequest();
      offReconnect();
      if (resync !== null) clearTimeout(resync);
      if (midnight !== null) clearTimeout(midnight);
    };
  }, [api]);
  return summary;
}
