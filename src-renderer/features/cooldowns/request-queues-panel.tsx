import type { RequestQueueView } from '../../../src-shared/domain/request-queue-view';
import type { ResourceSpec } from '../../resources/resource';
import { useResource } from '../../resources/resource-context';
import { CoolPanel } from './cool-panel';

/** Queues move with every request and push no event: re-read every couple of seconds while shown. */
export const QUEUES_REFRESH_MS = 2_000;

/** QUEUE-1: the request queues under maxConcurrent (`queues.list`), polled while the Cooldowns tab is open. */
export const REQUEST_QUEUES: ResourceSpec<'queues.list'> = { method: 'queues.list', pollMs: QUEUES_REFRESH_MS };

const COLUMNS = [
  'Connection',
  { label: 'Waiting', className: 'num' },
  { label: 'In flight', className: 'num' },
  { label: 'Wait p50', className: 'num' },
  { label: 'Wait p95', className: 'num' },
  'Budgets',
];

const ms = (value: number | null) =>
  value === null ? '—' : value < 1_000 ? `${value} ms` : `${(value / 1_000).toFixed(1)} s`;

function Budgets({ row }: { row: RequestQueueView }) {
  const depth = row.maxQueueDepth === 0 ? 'unbounded' : `max ${row.maxQueueDepth} waiting`;
  return (
    <span className="small muted">
      wait ≤ {ms(row.maxWaitMs)} · run ≤ {ms(row.executionMaxWaitMs)} · {depth}
    </span>
  );
}

/**
 * QUEUE-1: per connection with maxConcurrent, how many requests wait for a slot, how many run, and
 * how long the recent ones waited (p50/p95) — a growing queue explains a slow agent before any 429.
 */
export function RequestQueuesPanel() {
  const { data: rows, error } = useResource(REQUEST_QUEUES);
  return (
    <CoolPanel
      id="cool-queues"
      title="Request queues"
      intro="Requests waiting for a connection's concurrency limit (maxConcurrent)."
      empty={rows?.length === 0 ? 'No connection has a concurrency limit, so nothing ever queues.' : null}
      label="Request queues"
      columns={COLUMNS}
      notice={error && <p className="error-text small">{error.message}</p>}
      ready={rows !== undefined}
    >
      {rows?.map((row) => (
        <tr key={row.connectionId}>
          <td>{row.connection}</td>
          <td className="num">{row.queued}</td>
          <td className="num">
            {row.inFlight} / {row.maxConcurrent}
          </td>
          <td className="num">{ms(row.waitP50Ms)}</td>
          <td className="num">{ms(row.waitP95Ms)}</td>
          <td>
            <Budgets row={row} />
          </td>
        </tr>
      ))}
    </CoolPanel>
  );
}
