import { useState } from 'react';
import { useStore } from 'zustand';
import type { RequestLogEntry } from '../../../src-shared/domain/request-log';
import { EmptyState } from '../../components/empty-state';
import { LoadGate } from '../../components/load-gate';
import { ActivityDetail } from './activity-detail';
import { ActivityExport } from './activity-export';
import { ActivityFilters } from './activity-filters';
import { isFiltered } from './activity-range';
import { ActivityRow } from './activity-row';
import { useActivityView } from './use-activity-view';
import './activity.css';

/**
 * The request log, live: who asked, which connection served, how fast, what failed over first;
 * refused requests too (issue 13 §3). A row opens every attempt; the filter exports as CSV.
 */
export function ActivityTab() {
  const store = useActivityView();
  const state = useStore(store);
  const [open, setOpen] = useState<RequestLogEntry | null>(null);
  const filtered = isFiltered(state.filter);

  return (
    <section aria-labelledby="activity-title">
      <h2 id="activity-title">Activity</h2>
      <ActivityFilters store={store} />
      <LoadGate state={state} onRetry={() => void state.load()}>
        {state.entries.length === 0 ? (
          filtered ? (
            <EmptyState title="No matching requests">
              <p>No request in the log matches these filters. New ones that do appear here as they finish.</p>
            </EmptyState>
          ) : (
            <EmptyState title="No requests yet">
              <p>Point a client at Leeway (see Setup) and send a prompt; each request appears here as it finishes.</p>
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
                    <th>
                      <span className="visually-hidden">Details</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {state.entries.map((entry) => (
                    <ActivityRow key={entry.id} entry={entry} onOpen={setOpen} />
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
              <ActivityExport store={store} />
            </div>
          </>
        )}
      </LoadGate>
      {open && <ActivityDetail entry={open} onClose={() => setOpen(null)} />}
    </section>
  );
}
