import type { PinClear } from '../../../src-shared/domain/affinity';
import type { LeaseClear } from '../../../src-shared/domain/lease-clear';
import { useNow } from '../../components/use-now';
import { useAction } from '../../resources/action';
import type { ResourceSpec } from '../../resources/resource';
import { useResource } from '../../resources/resource-context';
import { LeasesList } from './leases-list';
import { PinsList } from './pins-list';
import './sessions.css';

/** Re-read this often while the tab is open: pins are created by requests, which push no event. */
export const SESSIONS_REFRESH_MS = 5_000;

/** Active session pins: read now, on every `sessions.changed`, and every few seconds. */
export const SESSION_PINS: ResourceSpec<'sessions.list'> = {
  method: 'sessions.list',
  events: { 'sessions.changed': ({ pins }) => pins },
  pollMs: SESSIONS_REFRESH_MS,
};

export const LEASES: ResourceSpec<'leases.list'> = {
  method: 'leases.list',
  events: { 'sessions.changed': ({ leases }) => leases },
  pollMs: SESSIONS_REFRESH_MS,
};

/** Session continuity: the soft pins that keep a session on its account, and the hard leases. */
export function SessionsTab() {
  const pins = useResource(SESSION_PINS);
  const leases = useResource(LEASES);
  const clearPins = useAction('sessions.clear');
  const clearLeases = useAction('leases.clear');
  const now = useNow(true, 5_000);

  const clear = async (run: () => Promise<unknown>, other: { clearError(): void }): Promise<void> => {
    other.clearError();
    await run();
  };
  const loadError = pins.error ?? leases.error;
  const actionError = clearPins.error ?? clearLeases.error;
  const retry = (): void => {
    pins.reload();
    leases.reload();
  };

  return (
    <section aria-labelledby="sessions-title">
      <h2 id="sessions-title">Sessions</h2>
      {(loadError ?? actionError) && (
        <div className="notice error" role="alert">
          <p>{actionError?.message ?? `Could not load sessions: ${loadError?.message ?? ''}`}</p>
          <button type="button" className="button" onClick={retry}>
            Try again
          </button>
        </div>
      )}
      <h3>Session pins</h3>
      <p className="muted">
        A pin is soft: when its connection cools down or fails, the session moves to the next one and the pin follows.
        Clearing a pin lets the session start over on whichever connection routing picks.
      </p>
      {pins.data === undefined ? (
        <p className="muted">Loading…</p>
      ) : (
        <PinsList
          pins={pins.data}
          now={now}
          onClear={(t: PinClear) => void clear(() => clearPins.run(t), clearLeases)}
        />
      )}
      <h3>Exclusive leases</h3>
      {leases.data === undefined ? (
        <p className="muted">Loading…</p>
      ) : (
        <LeasesList
          leases={leases.data}
          now={now}
          onClear={(t: LeaseClear) => void clear(() => clearLeases.run(t), clearPins)}
        />
      )}
    </section>
  );
}
