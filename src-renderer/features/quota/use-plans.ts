import { useCallback, useEffect, useState } from 'react';
import type { AppError } from '../../../src-shared/contract/errors';
import type { QuotaPlanView } from '../../../src-shared/domain/quota';
import { useApi } from '../../api/api-context';

/** Every connection's effective plan (QPLAN-3), read when the Plans section mounts and after each change. */
export function usePlans(): {
  plans: QuotaPlanView[] | null;
  error: AppError | null;
  reload: () => void;
  /** Puts a saved or reverted plan in at once. */
  replace: (plan: QuotaPlanView) => void;
} {
  const api = useApi();
  const [plans, setPlans] = useState<QuotaPlanView[] | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const reload = useCallback(() => {
    void api.call('quota.listPlans').then((result) => {
      if (result.ok) setPlans(result.value);
      setError(result.ok ? null : result.error);
    });
  }, [api]);
  useEffect(() => {
    reload();
    return api.onReconnect(reload);
  }, [api, reload]);
  const replace = useCallback((plan: QuotaPlanView) => {
    setPlans((list) =>
      list === null
        ? [plan]
        : list.some((p) => p.connection === plan.connection)
          ? list.map((p) => (p.connection === plan.connection ? plan : p))
          : [...list, plan],
    );
  }, []);
  return { plans, error, reload, replace };
}
