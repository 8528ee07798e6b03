import { useCallback, useEffect, useState } from 'react';
import type { AppError } from '../../../src-shared/contract/errors';
import type { SessionPinView } from '../../../src-shared/domain/affinity';
import type { LeaseView } from '../../../src-shared/domain/lease';
import { onEventType } from '../../api/api-client';
import { useApi } from '../../api/api-context';

/** Re-read this often while the tab is open: pins are created by requests, which push no event. */
export const SESSIONS_REFRESH_MS = 5_000;

export interface SessionsData {
  pins: SessionPinView[] | null;
  leases: LeaseView[] | null;
  error: AppError | null;
  reload: () => void;
}

/** Active pins and leases: read now, on every `sessions.changed`, and every few seconds. */
export function useSessions(refreshMs = SESSIONS_REFRESH_MS): SessionsData {
  const api = useApi();
  const [pins, setPins] = useState<SessionPinView[] | null>(null);
  const [leases, setLeases] = useState<LeaseView[] | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const reload = useCallback(() => {
    void Promise.all([api.call('sessions.list'), api.call('leases.list')]).then(([p, l]) => {
      if (p.ok) setPins(p.value);
      if (l.ok) setLeases(l.value);
      setError(!p.ok ? p.error : !l.ok ? l.error : null);
    });
  }, [api]);
  useEffect(() => {
    const off = onEventType(api, 'sessions.changed', (payload) => {
      setPins(payload.pins);
      setLeases(payload.leases);
    });
    const offReconnect = api.onReconnect(reload);
    reload();
    const timer = setInterval(reload, refreshMs);
    return () => {
      off();
      offReconnect();
      clearInterval(timer);
    };
  }, [api, reload, refreshMs]);
  return { pins, leases, error, reload };
}
