import { useState, type FormEvent, type KeyboardEvent } from 'react';
import type { LocalKeyView } from '../../../src-shared/domain/local-key';
import { useAction } from '../../resources/action';

/**
 * A key's name with "Rename" in place (issue 13 §8): same id and secret, so clients keep working;
 * quota allocations follow the id; earlier activity rows keep the old name.
 */
export function KeyNameCell({ keyView }: { keyView: LocalKeyView }) {
  const rename = useAction('keys.rename');
  const [draft, setDraft] = useState<string | null>(null);
  const error = rename.error?.message ?? null;

  const cancel = (): void => {
    setDraft(null);
    rename.clearError();
  };

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    const name = (draft ?? '').trim();
    if (name === keyView.name) return cancel();
    if ((await rename.run({ id: keyView.id, name })).ok) cancel();
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
          rename.clearError();
        }}
        onKeyDown={(e: KeyboardEvent<HTMLInputElement>) => {
          if (e.key === 'Escape') cancel();
        }}
      />
      <button type="submit" className="button small primary" disabled={rename.pending || draft.trim() === ''}>
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
