import { useState, type FormEvent } from 'react';
import { useStore } from 'zustand';
import { useStores } from '../../stores/stores-context';

/** Names and creates a local API key for one client (a laptop, a CI job, a teammate's agent). */
export function CreateKeyForm() {
  const { keys } = useStores();
  const create = useStore(keys, (s) => s.create);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    const result = await create(name.trim());
    setBusy(false);
    if (result.ok) setName('');
    setError(result.ok ? null : result.error.message);
  };

  return (
    <form className="inline-form" onSubmit={(e) => void submit(e)}>
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
    </form>
  );
}
