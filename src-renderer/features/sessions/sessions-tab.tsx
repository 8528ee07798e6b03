import { useState } from 'react';
import type { PinClear } from '../../../src-shared/domain/affinity';
import type { LeaseClear } from '../../../src-shared/domain/lease-clear';
import { useApi } from '../../api/api-context';
import { useNow } from '../../components/use-now';
import { LeasesList } from './leases-list';
import { PinsList } from './pins-list';
import { useSessions } from './use-sessions';
import './sessions.css';

/** Session continuity: the soft pins that keep a session on its account, and the hard leases. */
export function SessionsTab() {
  const api = useApi();
  const { pins, leases, error, reload } = useSessions();
  const now = useNow(true, 5_000);
  const [actionError, setActionError] = useState<string | null>(null);

  const clearPins = async (target: PinClear): Promise<void> => {
    const result = await api.call('sessions.clear', target);
    setActionError(result.ok ? null : result.error.message);
    reload();
  };
  const clearLeases = async (target: LeaseClear): Promise<void> => {
    const result = await api.call('leases.clear', target);
    setActionError(result.ok ? null : result.error.message);
    reload();
  };

  return (
    <section aria-labelledby="sessions-title">
      <h2 id="sessions-title">Sessions</h2>
      {(error ?? actionError) && (
        <div className="notice error" role="alert">
          <p>{actionError ?? `Could not load sessions: ${error?.message ?? ''}`}</p>
          <button type="button" className="button" onClick={reload}>
            Try again
          </button>
        </div>
      )}
      <h3>Session pins</h3>
      <p className="muted">
        A pin is soft: when its connection cools down or fails, the session moves to the next one and the pin follows.
        Clearing a pin lets the session start over on whichever connection routing picks.
      </p>
      {pins === null ? (
        <p className="muted">Loading…</p>
      ) : (
        <PinsList pins={pins} now={now} onClear={(t) => void clearPins(t)} />
      )}
      <h3>Exclusive leases</h3>
      {leases === null ? (
        <p className="muted">Loading…</p>
      ) : (
        <LeasesList leases={leases} now={now} onClear={(t) => void clearLeases(t)} />
      )}
    </section>
  );
}
