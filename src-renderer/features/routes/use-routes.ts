import { useCallback, useEffect, useState } from 'react';
import type { AppError } from '../../../src-shared/contract/errors';
import type { Route } from '../../../src-shared/domain/route';
import { onEventType } from '../../api/api-client';
import { useApi } from '../../api/api-context';

/** The stored routes: read once, then kept current by `routes.changed` (another window may save too). */
export function useRoutes(): {
  routes: Route[] | null;
  error: AppError | null;
  reload: () => void;
  /** What a save answered, shown at once rather than when the event arrives. */
  apply: (routes: Route[]) => void;
} {
  const api = useApi();
  const [routes, setRoutes] = useState<Route[] | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const reload = useCallback(() => {
    void api.call('routes.list').then((result) => {
      if (result.ok) setRoutes(result.value);
      setError(result.ok ? null : result.error);
    });
  }, [api]);
  useEffect(() => {
    const off = onEventType(api, 'routes.changed', ({ routes: next }) => setRoutes(next));
    const offReconnect = api.onReconnect(reload);
    reload();
    return () => {
      off();
      offReconnect();
    };
  }, [api, reload]);
  return { routes, error, reload, apply: setRoutes };
}
