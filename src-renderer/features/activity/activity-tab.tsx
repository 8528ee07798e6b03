import { useStore } from 'zustand';
import { EmptyState } from '../../components/empty-state';
import { LoadGate } from '../../components/load-gate';
import { useStores } from '../../stores/stores-context';
import { ActivityFilters } from './activity-filters';
import { ActivityRow } from './activity-row';

/** The request log, live: who asked, which connection served, how fast, and what failed over first. */
export function ActivityTab() {
  const { activity } = useStores();
  const state = useStore(activity);
  const filtered =
    state.filter.connection !== undefined || state.filter.model !== undefined || state.filter.status !== undefined;

  return (
    <section aria-labelledby="activity-title">
      <h2 id="activity-title">Activity</h2>
      <ActivityFilters />
      <LoadGate state={state} onRetry={() => void state.load()}>
        {state.entries.length === 0 ? (
          filtered ? (
            <EmptyState title="No matching requests">
              <p>No request in the log matches these filters. New ones that do appear here as they finish.</p>
            </EmptyState>
          ) : (
            <EmptyState title="No requests yet">
              <p>Point a client at Headroom (see Setup) and send a prompt; each request appears here as it finishes.</p>
            </EmptyState>
          )
        ) : (
          <>
            <div className="table-scroll">
              <table className="table compact activity-table" aria-label="Requests, newest first">
                <thead>
                  <tr>
                    <th className="num">Time</th>
                    <th>Key</th>
                    <th>Model</th>
                    <th>Connection</th>
                    <th>Status</th>
                    <th className="num">Latency</th>
                    <th className="num" title="Time to first byte">
                      TTFB
                    </th>
                    <th className="num">Tokens in → out</th>
                    <th>Failover path</th>
                  </tr>
                </thead>
                <tbody>
                  {state.entries.map((entry) => (
                    <ActivityRow key={entry.id} entry={entry} />
                  ))}
                </tbody>
              </table>
            </div>
            <div className="table-footer">
              <span className="muted small">
                {state.entries.length} request{state.entries.length === 1 ? '' : 's'} shown
              </span>
              {state.error && <span className="error-text small">{state.error.message}</span>}
              {state.hasMore && (
                <button
                  type="button"
                  className="button"
                  disabled={state.loadingOlder}
                  onClick={() => void state.loadOlder()}
                >
                  {state.loadingOlder ? 'Loading…' : 'Load older'}
                </button>
              )}
            </div>
          </>
        )}
      </LoadGate>
    </section>
  );
}
