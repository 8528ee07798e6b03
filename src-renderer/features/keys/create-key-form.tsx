import { useState, type FormEvent } from 'react';
import { LEASE_SCOPE } from '../../../src-shared/domain/lease';
import { useAction } from '../../resources/action';
import { useResource } from '../../resources/resource-context';
import { CONNECTIONS } from '../../resources/shared-data';
import { useCreatedKey } from './created-key';
import { accessProblem, KeyAccessFields, NO_ACCESS_LIMITS, type KeyAccessDraft } from './key-access-fields';
import './keys.css';

/** Names and creates a local API key for one client (a laptop, a CI job, a teammate's agent). */
export function CreateKeyForm() {
  const create = useAction('keys.create');
  const [, setCreated] = useCreatedKey();
  const connectionNames = (useResource(CONNECTIONS).data ?? []).map((c) => c.name);
  const [name, setName] = useState('');
  const [access, setAccess] = useState<KeyAccessDraft>(NO_ACCESS_LIMITS);
  const [accessError, setAccessError] = useState<string | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    const problem = accessProblem(access);
    setAccessError(problem);
    if (problem) return;
    const result = await create.run({
      name: name.trim(),
      scopes: access.leases ? [LEASE_SCOPE] : [],
      allowedConnections: access.allowedConnections,
    });
    if (!result.ok) return;
    // Shown once, here and in the Setup tab's snippets; the new row is already in the re-read list.
    setCreated(result.value);
    setName('');
    setAccess(NO_ACCESS_LIMITS);
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
        <button type="submit" className="button primary" disabled={create.pending || name.trim() === ''}>
          Create key
        </button>
        {create.error && <span className="error-text">{create.error.message}</span>}
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
