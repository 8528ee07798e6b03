import { useState } from 'react';
import type { ConnectionView } from '../../../src-shared/domain/connection';
import { EmptyState } from '../../components/empty-state';
import { ListGate } from '../../components/list-gate';
import { SectionHeader } from '../../components/section-header';
import { ACTIONS, Table } from '../../components/table';
import { useResource } from '../../resources/resource-context';
import { CONNECTIONS, COOLDOWNS } from '../../resources/shared-data';
import { ImportClaudeButton } from '../claude/import-claude';
import { ConnectionEditor } from './connection-editor';
import { ConnectionRow } from './connection-row';
import './connections.css';

// By id, so the editor stays on its connection while a rename (issue 13 §8) changes the name.
type Editing = { mode: 'add' } | { mode: 'edit'; id: string } | null;

const COLUMNS = [
  'Name',
  'Kind',
  'Models',
  { label: 'Priority', className: 'num' },
  'Status',
  'Secret',
  'Enabled',
  ACTIONS,
];

/** Upstream connections as the proxy will try them (lower priority number first), with their health and editor. */
export function ConnectionsTab() {
  const connections = useResource(CONNECTIONS);
  const { data: snapshot, receivedAt } = useResource(COOLDOWNS);
  const [editing, setEditing] = useState<Editing>(null);

  const cooldownOf = (view: ConnectionView) =>
    snapshot?.connections.find((c) => c.id === view.id || c.name === view.name);
  const skewMs = snapshot ? snapshot.now - receivedAt : 0;
  // The editor gets the live view: its secret hint and stored kind follow events while it is open.
  const original = editing?.mode === 'edit' ? (connections.data?.find((c) => c.id === editing.id) ?? null) : null;
  const add = () => setEditing({ mode: 'add' });

  return (
    <section aria-labelledby="connections-title">
      <SectionHeader id="connections-title" title="Connections">
        <ImportClaudeButton />
        <button type="button" className="button primary" onClick={add}>
          Add connection
        </button>
      </SectionHeader>
      <ListGate
        resource={connections}
        empty={
          <EmptyState title="No connections yet">
            <p>
              Leeway needs at least one upstream before it can answer requests: an Anthropic or OpenAI API key, a Claude
              subscription login, or an OpenAI-compatible server such as Ollama.
            </p>
            <p>
              <button type="button" className="button primary" onClick={add}>
                Add your first connection
              </button>
            </p>
          </EmptyState>
        }
      >
        {(items) => (
          <Table className="table connections-table" columns={COLUMNS}>
            {[...items]
              .sort((a, b) => a.priority - b.priority || a.name.localeCompare(b.name))
              .map((view) => (
                <ConnectionRow
                  key={view.id}
                  view={view}
                  cooldown={cooldownOf(view)}
                  loaded={snapshot !== undefined}
                  skewMs={skewMs}
                  onEdit={(v) => setEditing({ mode: 'edit', id: v.id })}
                />
              ))}
          </Table>
        )}
      </ListGate>
      {editing && (editing.mode === 'add' || original) && (
        <ConnectionEditor
          key={editing.mode === 'add' ? 'add' : editing.id}
          original={original}
          onClose={() => setEditing(null)}
        />
      )}
    </section>
  );
}
