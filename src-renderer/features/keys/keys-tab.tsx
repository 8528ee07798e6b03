import { useState } from 'react';
import { useStore } from 'zustand';
import { EmptyState } from '../../components/empty-state';
import { LoadGate } from '../../components/load-gate';
import { useStores } from '../../stores/stores-context';
import { formatTime } from '../activity/format-activity';
import { CreateKeyForm } from './create-key-form';
import { CreatedKeyNotice } from './created-key-notice';
import { KeyNameCell } from './key-name-cell';

const formatDate = (ts: number): string => `${new Date(ts).toLocaleDateString()} ${formatTime(ts)}`;

/** Local API keys: what clients present to the proxy, one per client so each can be revoked alone. */
export function KeysTab() {
  const { keys } = useStores();
  const state = useStore(keys);
  const [error, setError] = useState<string | null>(null);

  const revoke = async (id: string, name: string): Promise<void> => {
    if (!window.confirm(`Revoke key "${name}"? Clients using it will be refused at once.`)) return;
    const result = await state.revoke(id);
    setError(result.ok ? null : result.error.message);
  };

  return (
    <section aria-labelledby="keys-title">
      <h2 id="keys-title">Keys</h2>
      <CreateKeyForm />
      <CreatedKeyNotice />
      {error && <p className="error-text">{error}</p>}
      <LoadGate state={state} onRetry={() => void state.load()}>
        {state.items.length === 0 ? (
          <EmptyState title="No keys yet">
            <p>
              Clients such as Claude Code and aider authenticate to Leeway with a local key. Create one above, then see
              Setup.
            </p>
          </EmptyState>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Starts with</th>
                <th>Created</th>
                <th>Last used</th>
                <th>Scopes</th>
                <th>Connections</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {state.items.map((k) => (
                <tr key={k.id} className={k.revokedAt === null ? undefined : 'dimmed'}>
                  <td>
                    <KeyNameCell keyView={k} />
                  </td>
                  <td>
                    <code>{k.prefix}…</code>
                  </td>
                  <td>{formatDate(k.createdAt)}</td>
                  <td>{k.lastUsedAt === null ? <span className="muted">never</span> : formatDate(k.lastUsedAt)}</td>
                  <td>
                    {k.scopes.length === 0 ? (
                      <span className="muted">none</span>
                    ) : (
                      k.scopes.map((scope) => (
                        <span key={scope} className="chip">
                          {scope}
                        </span>
                      ))
                    )}
                  </td>
                  <td>
                    {k.allowedConnections.length === 0 ? (
                      <span className="muted">all</span>
                    ) : (
                      k.allowedConnections.join(', ')
                    )}
                  </td>
                  <td className="actions">
                    {k.revokedAt === null ? (
                      <button type="button" className="button small danger" onClick={() => void revoke(k.id, k.name)}>
                        Revoke
                      </button>
                    ) : (
                      <span className="badge">Revoked</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </LoadGate>
    </section>
  );
}
