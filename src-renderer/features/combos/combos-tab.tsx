import { useState } from 'react';
import { ConfirmButton } from '../../components/confirm-button';
import { EmptyState } from '../../components/empty-state';
import { ErrorNotice } from '../../components/error-notice';
import { ListGate } from '../../components/list-gate';
import { SectionHeader } from '../../components/section-header';
import { ACTIONS, Table } from '../../components/table';
import { useAction } from '../../resources/action';
import { useResource } from '../../resources/resource-context';
import { COMBOS, CONNECTIONS } from '../../resources/shared-data';
import { ComboEditor } from './combo-editor';
import { STRATEGY_TEXT } from './combo-strategy-field';
import './combos.css';

// By id, so the editor stays on its combo while a rename (issue 13 §8) changes the name.
type Editing = { mode: 'add' } | { mode: 'edit'; id: string } | null;

const COLUMNS = ['Name', 'Strategy', 'Targets, in order', ACTIONS];

/** Combos: names a client can use as a model, each spreading over an ordered list of targets. */
export function CombosTab() {
  const combos = useResource(COMBOS);
  const connectionList = useResource(CONNECTIONS).data ?? [];
  const remove = useAction('combos.remove');
  const [editing, setEditing] = useState<Editing>(null);
  const original = editing?.mode === 'edit' ? (combos.data?.find((c) => c.id === editing.id) ?? null) : null;
  const known = new Set(connectionList.map((c) => c.name));
  const canAdd = connectionList.length > 0;

  return (
    <section aria-labelledby="combos-title">
      <SectionHeader id="combos-title" title="Combos">
        <button type="button" className="button primary" disabled={!canAdd} onClick={() => setEditing({ mode: 'add' })}>
          New combo
        </button>
      </SectionHeader>
      <ErrorNotice message={remove.error?.message} />
      <ListGate
        resource={combos}
        empty={
          <EmptyState title="No combos yet">
            <p>
              A combo is a model name that Leeway spreads over several connections, trying them in order and failing
              over when one is rate limited. Without one, clients ask for a model by its own name and Leeway picks a
              connection that serves it.
            </p>
            {canAdd ? (
              <p>
                <button type="button" className="button primary" onClick={() => setEditing({ mode: 'add' })}>
                  Create your first combo
                </button>
              </p>
            ) : (
              <p>
                Add a connection first, on the <a href="#connections">Connections</a> tab.
              </p>
            )}
          </EmptyState>
        }
      >
        {(items) => (
          <Table columns={COLUMNS}>
            {items.map((combo) => (
              <tr key={combo.id}>
                <td>
                  <code>{combo.name}</code>
                </td>
                <td title={STRATEGY_TEXT[combo.strategy].explanation}>{STRATEGY_TEXT[combo.strategy].label}</td>
                <td>
                  <ol className="targets">
                    {combo.targets.map((t, i) => (
                      <li key={i}>
                        {t.connection}
                        {!known.has(t.connection) && <span className="badge err"> not found</span>}
                        {t.model ? (
                          <span className="muted"> · {t.model}</span>
                        ) : (
                          <span className="muted small"> · client’s model</span>
                        )}
                      </li>
                    ))}
                  </ol>
                </td>
                <td className="actions">
                  <div className="row-actions">
                    <button
                      type="button"
                      className="button small"
                      onClick={() => setEditing({ mode: 'edit', id: combo.id })}
                      aria-label={`Edit ${combo.name}`}
                    >
                      Edit
                    </button>
                    <ConfirmButton
                      label="Remove"
                      question={`Remove ${combo.name}?`}
                      onConfirm={() => void remove.run({ name: combo.name })}
                    />
                  </div>
                </td>
              </tr>
            ))}
          </Table>
        )}
      </ListGate>
      {editing && (editing.mode === 'add' || original) && (
        <ComboEditor
          key={editing.mode === 'add' ? 'add' : editing.id}
          original={original}
          connections={connectionList}
          onClose={() => setEditing(null)}
        />
      )}
    </section>
  );
}
