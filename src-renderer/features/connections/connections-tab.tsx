import { useState } from 'react';
import { useStore } from 'zustand';
import type { ConnectionView } from '../../../src-shared/domain/connection';
import { EmptyState } from '../../components/empty-state';
import { LoadGate } from '../../components/load-gate';
import { SectionHeader } from '../../components/section-header';
import { useStores } from '../../stores/stores-context';
import { ImportClaudeButton } from '../claude/import-claude';
import { ConnectionEditor } from './connection-editor';
import { ConnectionRow } from './connection-row';
import './connections.css';

// By id, so the editor stays on its connection while a rename (issue 13 §8) changes the name.
type Editing = { mode: 'add' } | { mode: 'edit'; id: string } | null;

/** Upstream connections as the proxy will try them (lower priority number first), with their health and editor. */
export function ConnectionsTab() {
  const { connections, cooldowns } = useStores();
  const state = useStore(connections);
  const snapshot = useStore(cooldowns, (s) => s.snapshot);
  const receivedAt = useStore(cooldowns, (s) => s.receivedAt);
  const [editing, setEditing] = useState<Editing>(null);

  const rows = [...state.items].sort((a, b) => a.priority - b.priority || a.name.localeCompare(b.name));
  const cooldownOf = (view: ConnectionView) =>
    snapshot?.connections.find((c) => c.id === view.id || c.name === view.name);
  const skewMs = snapshot ? snapshot.now - receivedAt : 0;
  // The editor gets the live view: its secret hint and stored kind follow events while it is open.
  const original = editing?.mode === 'edit' ? (state.items.find((c) => c.id === editing.id) ?? null) : null;

  return (
    <section aria-labelledby="connections-title">
      <SectionHeader id="connections-title" title="Connections">
        <ImportClaudeButton />
        <button type="button" className="button primary" onClick={() => setEditing({ mode: 'add' })}>
          Add connection
        </button>
      </SectionHeader>
      <LoadGate state={state} onRetry={() => void state.load()}>
        {rows.length === 0 ? (
          <EmptyState title="No connections yet">
            <p>
              Leeway needs at least one upstream before it can answer requests: an Anthropic or OpenAI API key, a Claude
              subscription login, or an OpenAI-compatible server such as Ollama.
            </p>
            <p>
              <button type="button" className="button primary" onClick={() => setEditing({ mode: 'add' })}>
                Add your first connection
              </button>
            </p>
          </EmptyState>
        ) : (
          <table className="table connections-table">
            <thead>
              <tr>
                <th>Name</th>
                <th>Kind</th>
                <th>Models</th>
                <th className="num">Priority</th>
                <th>Status</th>
                <th>Secret</th>
                <th>Enabled</th>
                <th>
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((view) => (
                <ConnectionRow
                  key={view.id}
                  view={view}
                  cooldown={cooldownOf(view)}
                  loaded={snapshot !== null}
                  skewMs={skewMs}
                  onEdit={(v) => setEditing({ mode: 'edit', id: v.id })}
                />
              ))}
            </tbody>
          </table>
        )}
      </LoadGate>
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
