import { useStore } from 'zustand';
import { EmptyState } from '../../components/empty-state';
import { LoadGate } from '../../components/load-gate';
import { useStores } from '../../stores/stores-context';
import { formatFailover, formatLatency, formatTime, formatTokens } from './format-activity';

/** The latest requests through the proxy, live: who asked, which connection served, and what failed over. */
export function ActivityTab() {
  const { activity } = useStores();
  const state = useStore(activity);
  return (
    <section aria-labelledby="activity-title">
      <h2 id="activity-title">Activity</h2>
      <LoadGate state={state} onRetry={() => void state.load()}>
        {state.entries.length === 0 ? (
          <EmptyState title="No requests yet">
            <p>Point a client at Headroom (see Setup) and send a prompt; each request appears here as it finishes.</p>
          </EmptyState>
        ) : (
          <table className="table compact">
            <thead>
              <tr>
                <th>Time</th>
                <th>Key</th>
                <th>Model</th>
                <th>Connection</th>
                <th className="num">Status</th>
                <th className="num">Latency</th>
                <th className="num">Tokens in → out</th>
                <th>Failover</th>
              </tr>
            </thead>
            <tbody>
              {state.entries.map((e) => (
                <tr key={e.id}>
                  <td>{formatTime(e.ts)}</td>
                  <td>{e.keyName ?? <span className="muted">—</span>}</td>
                  <td>
                    <code>{e.model ?? '—'}</code>
                  </td>
                  <td>{e.connection ?? <span className="muted">none</span>}</td>
                  <td className="num">
                    <span className={e.status < 400 ? 'badge ok' : 'badge err'} title={e.errorCode ?? undefined}>
                      {e.status}
                    </span>
                  </td>
                  <td className="num">{formatLatency(e.latencyMs)}</td>
                  <td className="num">{formatTokens(e)}</td>
                  <td className="small">{formatFailover(e) || <span className="muted">—</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </LoadGate>
    </section>
  );
}
