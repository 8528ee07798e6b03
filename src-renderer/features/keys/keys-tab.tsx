import type { LocalKeyView } from '../../../src-shared/domain/local-key';
import { EmptyState } from '../../components/empty-state';
import { ListGate } from '../../components/list-gate';
import { Table } from '../../components/table';
import { useAction } from '../../resources/action';
import { useResource } from '../../resources/resource-context';
import { KEYS } from '../../resources/shared-data';
import { formatTime } from '../activity/format-activity';
import { CreateKeyForm } from './create-key-form';
import { CreatedKeyNotice } from './created-key-notice';
import { KeyNameCell } from './key-name-cell';

const formatDate = (ts: number): string => `${new Date(ts).toLocaleDateString()} ${formatTime(ts)}`;

const COLUMNS = ['Name', 'Starts with', 'Created', 'Last used', 'Scopes', 'Connections', ''];

/** Local API keys: what clients present to the proxy, one per client so each can be revoked alone. */
export function KeysTab() {
  const keys = useResource(KEYS);
  const revoke = useAction('keys.revoke');

  const confirmRevoke = (key: LocalKeyView): void => {
    if (window.confirm(`Revoke key "${key.name}"? Clients using it will be refused at once.`))
      void revoke.run({ id: key.id });
  };

  return (
    <section aria-labelledby="keys-title">
      <h2 id="keys-title">Keys</h2>
      <CreateKeyForm />
      <CreatedKeyNotice />
      {revoke.error && <p className="error-text">{revoke.error.message}</p>}
      <ListGate
        resource={keys}
        empty={
          <EmptyState title="No keys yet">
            <p>
              Clients such as Claude Code and aider authenticate to Leeway with a local key. Create one above, then see
              Setup.
            </p>
          </EmptyState>
        }
      >
        {(items) => (
          <Table columns={COLUMNS}>
            {items.map((k) => (
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
                    <button type="button" className="button small danger" onClick={() => confirmRevoke(k)}>
                      Revoke
                    </button>
                  ) : (
                    <span className="badge">Revoked</span>
                  )}
                </td>
              </tr>
            ))}
          </Table>
        )}
      </ListGate>
    </section>
  );
}
