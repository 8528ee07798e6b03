import { useState, type FormEvent } from 'react';
import { Dialog } from '../../components/dialog';
import { DialogActions } from '../../components/dialog-actions';
import { FormField } from '../../components/form-field';
import { useAction } from '../../resources/action';

/** The import form: a connection name and, rarely, a credentials file other than Claude Code's own. */
function ImportClaudeDialog({ presetName, onClose }: { presetName: string; onClose: () => void }) {
  // A re-import also resets the connection, so the status and the cooldowns are read again (INVALIDATES).
  const importCredentials = useAction('claude.importCredentials');
  const [name, setName] = useState(presetName);
  const [path, setPath] = useState('');

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    importCredentials.clearError();
    const trimmed = path.trim();
    const result = await importCredentials.run({ name: name.trim(), ...(trimmed ? { path: trimmed } : {}) });
    if (result.ok) onClose();
  };
  const error = importCredentials.error?.message;

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
        <DialogActions
          onCancel={onClose}
          busy={importCredentials.pending}
          disabled={name.trim() === ''}
          submitLabel="Import"
          busyLabel="Importing…"
        />
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
