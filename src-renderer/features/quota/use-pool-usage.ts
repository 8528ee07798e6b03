import { useCallback, useEffect, useState } from 'react';
import type { AppError } from '../../../src-shared/contract/errors';
import type { QuotaPoolUsage } from '../../../src-shared/domain/quota';
import { useApi } from '../../api/api-context';

/** How often an open pool card re-reads its usage, so the bars move while traffic flows. */
export const USAGE_REFRESH_MS = 3_000;

/**
 * QUI-10: one pool's usage, fetched only while `open` (its card expanded), then every few seconds;
 * nothing is read for closed cards.
 */
export function usePoolUsage(
  poolId: string,
  open: boolean,
  refreshMs = USAGE_REFRESH_MS,
): { usage: QuotaPoolUsage | null; error: AppError | null; reload: () => void } {
  const api = useApi();
  const [usage, setUsage] = useState<QuotaPoolUsage | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const reload = useCallback(() => {
    void api.call('quota.poolUsage', { id: poolId }).then((result) => {
      if (result.ok) setUsage(result.value);
      setError(result.ok ? null : result.error);
    });
  }, [api, poolId]);
  useEffect(() => {
    if (!open) return;
    reload();
    const timer = setInterval(reload, refreshMs);
    return () => clearInterval(timer);
  }, [open, reload, refreshMs]);
  return { usage, error, reload };
}
