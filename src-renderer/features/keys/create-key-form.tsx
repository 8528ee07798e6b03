import { useState, type FormEvent } from 'react';
import { useStore } from 'zustand';
import { LEASE_SCOPE } from '../../../src-shared/domain/lease';
import { useStores } from '../../stores/stores-context';
import { accessProblem, KeyAccessFields, NO_ACCESS_LIMITS, type KeyAccessDraft } from './key-access-fields';
import './keys.css';

/** Names and creates a local API key for one client (a laptop, a CI job, a teammate's agent). */
export function CreateKeyForm() {
  const { keys, connections } = useStores();
  const create = useStore(keys, (s) => s.create);
  const connectionNames = useStore(connections, (s) => s.items).map((c) => c.name);
  const [name, setName] = useState('');
  const [access, setAccess] = useState<KeyAccessDraft>(NO_ACCESS_LIMITS);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [accessError, setAccessError] = useState<string | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    const problem = accessProblem(access);
    setAccessError(problem);
    if (problem) return;
    setBusy(true);
    const result = await create(name.trim(), {
      scopes: access.leases ? [LEASE_SCOPE] : [],
      allowedConnections: access.allowedConnections,
    });
    setBusy(false);
    if (result.ok) {
      setName('');
      setAccess(NO_ACCESS_LIMITS);
    }
    setError(result.ok ? null : result.error.message);
  };

  return (
    <form className="create-key-form" onSubmit={(e) => void submit(e)}>
      <div className="inline-form">
        <label htmlFor="key-name">Name</label>
        <input
          id="key-name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="e.g. laptop-claude-code"
          maxLength={64}
          required
        />
        <button type="submit" className="button primary" disabled={busy || name.trim() === ''}>
          Create key
        </button>
        {error && <span className="error-text">{error}</span>}
      </div>
      <KeyAccessFields
        access={access}
        connections={connectionNames}
        error={accessError}
        onChange={(next) => {
          setAccess(next);
          setAccessError(null);
        }}
      />
    </form>
  );
}
