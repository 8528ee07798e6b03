import type { RequestQueueView } from '../../../src-shared/domain/request-queue-view';
import { useQueues } from './use-queues';

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
export function RequestQueuesPanel({ refreshMs }: { refreshMs?: number }) {
  const { rows, error } = useQueues(refreshMs);
  return (
    <section className="cool-panel" aria-labelledby="cool-queues-title">
      <header className="cool-panel-header">
        <h3 id="cool-queues-title">Request queues</h3>
        <span className="muted small">Requests waiting for a connection's concurrency limit (maxConcurrent).</span>
      </header>
      {error && <p className="error-text small">{error.message}</p>}
      {rows !== null && rows.length === 0 && (
        <p className="panel-empty">No connection has a concurrency limit, so nothing ever queues.</p>
      )}
      {rows !== null && rows.length > 0 && (
        <table className="table" aria-label="Request queues">
          <thead>
            <tr>
              <th>Connection</th>
              <th className="num">Waiting</th>
              <th className="num">In flight</th>
              <th className="num">Wait p50</th>
              <th className="num">Wait p95</th>
              <th>Budgets</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
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
          </tbody>
        </table>
      )}
    </section>
  );
}
