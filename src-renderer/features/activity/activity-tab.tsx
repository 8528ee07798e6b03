import { useState } from 'react';
import { useStore } from 'zustand';
import type { RequestLogEntry } from '../../../src-shared/domain/request-log';
import { EmptyState } from '../../components/empty-state';
import { ListGate } from '../../components/list-gate';
import { Table, type Column } from '../../components/table';
import type { ResourceView } from '../../resources/resource-context';
import { ActivityDetail } from './activity-detail';
import { ActivityExport } from './activity-export';
import { ActivityFilters } from './activity-filters';
import { isFiltered } from './activity-range';
import { ActivityRow } from './activity-row';
import { useActivityView } from './use-activity-view';
import './activity.css';

const COLUMNS: readonly Column[] = [
  { label: 'Time', className: 'num' },
  'Key',
  'Model',
  'Connection',
  'Status',
  { label: 'Latency', className: 'num' },
  { label: 'TTFB', className: 'num', title: 'Time to first byte' },
  { label: 'Tokens in → out', className: 'num' },
  'Failover path',
  { label: <span className="visually-hidden">Details</span> },
];

/**
 * The request log, live: who asked, which connection served, how fast, what failed over first;
 * refused requests too (issue 13 §3). A row opens every attempt; the filter exports as CSV.
 */
export function ActivityTab() {
  const store = useActivityView();
  const state = useStore(store);
  const [open, setOpen] = useState<RequestLogEntry | null>(null);
  const filtered = isFiltered(state.filter);
  // The store's first page as the list gate reads a resource; a failed "Load older" stays under the rows.
  const firstPage: ResourceView<readonly RequestLogEntry[]> = {
    data: state.status === 'ready' ? state.entries : undefined,
    error: state.status === 'error' ? state.error : null,
    loading: state.status === 'loading',
    receivedAt: 0,
    reload: () => void state.load(),
  };

  return (
    <section aria-labelledby="activity-title">
      <h2 id="activity-title">Activity</h2>
      <ActivityFilters store={store} />
      <ListGate
        resource={firstPage}
        empty={
          filtered ? (
            <EmptyState title="No matching requests">
              <p>No request in the log matches these filters. New ones that do appear here as they finish.</p>
            </EmptyState>
          ) : (
            <EmptyState title="No requests yet">
              <p>Point a client at Leeway (see Setup) and send a prompt; each request appears here as it finishes.</p>
            </EmptyState>
          )
        }
      >
        {(entries) => (
          <>
            <div className="table-scroll">
              <Table className="table compact activity-table" label="Requests, newest first" columns={COLUMNS}>
                {entries.map((entry) => (
                  <ActivityRow key={entry.id} entry={entry} onOpen={setOpen} />
                ))}
              </Table>
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
      </ListGate>
      {open && <ActivityDetail entry={open} onClose={() => setOpen(null)} />}
    </section>
  );
}
