import { useState, type FormEvent, type KeyboardEvent } from 'react';
import type { LocalKeyView } from '../../../src-shared/domain/local-key';
import { useApi } from '../../api/api-context';

/**
 * A key's name with "Rename" in place (issue 13 §8): same id and secret, so clients keep working;
 * quota allocations follow the id; earlier activity rows keep the old name.
 */
export function KeyNameCell({ keyView }: { keyView: LocalKeyView }) {
  const api = useApi();
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const cancel = (): void => {
    setDraft(null);
    setError(null);
  };

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    const name = (draft ?? '').trim();
    if (name === keyView.name) return cancel();
    setBusy(true);
    const result = await api.call('keys.rename', { id: keyView.id, name });
    setBusy(false);
    if (!result.ok) return setError(result.error.message);
    cancel();
  };

  if (draft === null) {
    return (
      <span className="key-name">
        <span>{keyView.name}</span>{' '}
        <button
          type="button"
          className="button small"
          aria-label={`Rename ${keyView.name}`}
          onClick={() => setDraft(keyView.name)}
        >
          Rename
        </button>
      </span>
    );
  }
  const errorId = `key-rename-${keyView.id}-error`;
  return (
    <form className="key-rename" onSubmit={(e) => void submit(e)}>
      <input
        className="input"
        aria-label={`New name for ${keyView.name}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        value={draft}
        maxLength={64}
        autoFocus
        onChange={(e) => {
          setDraft(e.target.value);
          setError(null);
        }}
        onKeyDown={(e: KeyboardEvent<HTMLInputElement>) => {
          if (e.key === 'Escape') cancel();
        }}
      />
      <button type="submit" className="button small primary" disabled={busy || draft.trim() === ''}>
        Save
      </button>
      <button type="button" className="button small" onClick={cancel}>
        Cancel
      </button>
      {error && (
        <span id={errorId} className="field-error" role="alert">
          {error}
        </span>
      )}
    </form>
  );
}
