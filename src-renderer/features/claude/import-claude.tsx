import { useState, type FormEvent } from 'react';
import { useStore } from 'zustand';
import { Dialog } from '../../components/dialog';
import { FormField } from '../../components/form-field';
import { useStores } from '../../stores/stores-context';

/** The import form: a connection name and, rarely, a credentials file other than Claude Code's own. */
function ImportClaudeDialog({ presetName, onClose }: { presetName: string; onClose: () => void }) {
  const { claude } = useStores();
  const importCredentials = useStore(claude, (s) => s.importCredentials);
  const [name, setName] = useState(presetName);
  const [path, setPath] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const trimmed = path.trim();
    const result = await importCredentials({ name: name.trim(), ...(trimmed ? { path: trimmed } : {}) });
    setBusy(false);
    if (result.ok) onClose();
    else setError(result.error.message);
  };

  return (
    <Dialog title="Import from Claude Code" onClose={onClose}>
      <form onSubmit={(e) => void submit(e)}>
        <p className="small muted">
          Uses the Claude subscription login that Claude Code saved on this machine (sign in with <code>claude</code>{' '}
          first). Importing again under the same name replaces the tokens and clears “Sign in again”.
        </p>
        <FormField id="claude-import-name" label="Connection name">
          {(aria) => <input {...aria} value={name} onChange={(e) => setName(e.target.value)} data-autofocus />}
        </FormField>
        <FormField
          id="claude-import-path"
          label="Credentials file (optional)"
          hint="Leave empty for Claude Code’s own location (~/.claude/.credentials.json, or the macOS keychain)."
        >
          {(aria) => <input {...aria} value={path} onChange={(e) => setPath(e.target.value)} />}
        </FormField>
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={busy || name.trim() === ''}>
            {busy ? 'Importing…' : 'Import'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** "Import from Claude Code": creates or refreshes a claude-oauth connection via `claude.importCredentials`. */
export function ImportClaudeButton({
  presetName = 'claude',
  label = 'Import from Claude Code',
  small = false,
}: {
  presetName?: string;
  label?: string;
  small?: boolean;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={small ? 'button small' : 'button'} onClick={() => setOpen(true)}>
        {label}
      </button>
      {open && <ImportClaudeDialog presetName={presetName} onClose={() => setOpen(false)} />}
    </>
  );
}
