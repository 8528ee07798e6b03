import { useStore } from 'zustand';
import { EmptyState } from '../../components/empty-state';
import { LoadGate } from '../../components/load-gate';
import { useStores } from '../../stores/stores-context';

/** Upstream connections, as the proxy will try them (lower priority number first). */
export function ConnectionsTab() {
  const { connections } = useStores();
  const state = useStore(connections);
  const rows = [...state.items].sort((a, b) => a.priority - b.priority || a.name.localeCompare(b.name));
  return (
    <section aria-labelledby="connections-title">
      <h2 id="connections-title">Connections</h2>
      <LoadGate state={state} onRetry={() => void state.load()}>
        {rows.length === 0 ? (
          <EmptyState title="No connections yet">
            <p>
              Headroom needs at least one upstream (an Anthropic or OpenAI API key, a Claude login, or an
              OpenAI-compatible server) before it can answer requests. Add one in Headroom's config file; it appears
              here as soon as Headroom loads it.
            </p>
          </EmptyState>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Kind</th>
                <th>Models</th>
                <th className="num">Priority</th>
                <th>State</th>
                <th>Secret</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((c) => (
                <tr key={c.id} className={c.enabled ? undefined : 'dimmed'}>
                  <td>
                    <strong>{c.name}</strong>
                    <div className="muted small">{c.effectiveBaseUrl}</div>
                  </td>
                  <td>{c.kind}</td>
                  <td>
                    {c.models.length === 0 ? (
                      <span className="muted">any model</span>
                    ) : (
                      c.models.join(', ')
                    )}
                  </td>
                  <td className="num">{c.priority}</td>
                  <td>
                    <span className={c.enabled ? 'badge ok' : 'badge'}>{c.enabled ? 'Enabled' : 'Disabled'}</span>
                  </td>
                  <td>{c.secretHint ? <code>{c.secretHint}</code> : <span className="muted">none</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </LoadGate>
    </section>
  );
}
