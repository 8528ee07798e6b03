import { useEffect } from 'react';
import type { ActivitySummary } from '../../../src-shared/contract/methods';
import { onEventType } from '../../api/api-client';
import type { ResourceSpec } from '../../resources/resource';
import { useResource, useResourceCache } from '../../resources/resource-context';

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

/** Today's requests and errors (local day, as `activity.summary` counts them), counted up by each finished request. */
export const REQUESTS_TODAY: ResourceSpec<'activity.summary'> = {
  method: 'activity.summary',
  events: {
    'activity.request': ({ entry }, today) => {
      if (!today || entry.ts < startOfLocalDay(Date.now())) return undefined;
      const error = entry.status >= 400 ? 1 : 0;
      return { requestsToday: today.requestsToday + 1, errorsToday: today.errorsToday + error };
    },
  },
};

/**
 * Today's figures: read once, counted up live, read again a few seconds after traffic (the core
 * writes the log in batches, so an immediate read could count less), after a stream gap and at midnight.
 */
export function useRequestsToday(): ActivitySummary | null {
  const { data, reload } = useResource(REQUESTS_TODAY);
  const { api } = useResourceCache();
  useEffect(() => {
    let resync: ReturnType<typeof setTimeout> | null = null;
    let midnight: ReturnType<typeof setTimeout> | null = null;
    const offRequest = onEventType(api, 'activity.request', () => {
      resync ??= setTimeout(() => {
        resync = null;
        reload();
      }, TODAY_RESYNC_MS);
    });
    const arm = (): void => {
      midnight = setTimeout(
        () => {
          reload();
          arm();
        },
        Math.max(1_000, nextLocalMidnight(Date.now()) - Date.now()),
      );
    };
    arm();
    return () => {
      offRequest();
      if (midnight !== null) clearTimeout(midnight);
      if (resync !== null) clearTimeout(resync);
    };
  }, [api, reload]);
  return data ?? null;
}
