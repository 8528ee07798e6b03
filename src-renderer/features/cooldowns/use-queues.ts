import { useCallback, useEffect, useState } from 'react';
import type { AppError } from '../../../src-shared/contract/errors';
import type { RequestQueueView } from '../../../src-shared/domain/request-queue-view';
import { useApi } from '../../api/api-context';

/** Queues move with every request and push no event: re-read every couple of seconds while shown. */
export const QUEUES_REFRESH_MS = 2_000;

/** QUEUE-1: the request queues (`queues.list`), polled while the Cooldowns tab is open. */
export function useQueues(refreshMs = QUEUES_REFRESH_MS): { rows: RequestQueueView[] | null; error: AppError | null } {
  const api = useApi();
  const [rows, setRows] = useState<RequestQueueView[] | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const reload = useCallback(() => {
    void api.call('queues.list').then((result) => {
      if (result.ok) setRows(result.value);
      setError(result.ok ? null : result.error);
    });
  }, [api]);
  useEffect(() => {
    reload();
    const timer = setInterval(reload, refreshMs);
    return () => clearInterval(timer);
  }, [reload, refreshMs]);
  return { rows, error };
}
