import { useState } from 'react';
import type { Result } from '../../../src-shared/contract/errors';
import type { ClaudeCodeSettingsChange, ClaudeCodeSetupStatus } from '../../../src-shared/contract/methods';
import { ErrorNotice } from '../../components/error-notice';
import { useAction } from '../../resources/action';
import type { ResourceSpec } from '../../resources/resource';
import { useResource } from '../../resources/resource-context';
import { DiffView } from './diff-view';
import './setup.css';

type Step =
  | { kind: 'idle' }
  | { kind: 'preview'; change: ClaudeCodeSettingsChange }
  | { kind: 'applied'; change: ClaudeCodeSettingsChange; backupPath: string | null }
  | { kind: 'undone'; message: string };

/** Where Claude Code's settings file is, whether it points here, and which backup Undo would restore (read from disk). */
export const CLAUDE_CODE_STATUS: ResourceSpec<'setup.claudeCodeStatus'> = { method: 'setup.claudeCodeStatus' };

/** The file as found on load: an earlier "Configure" (from the backup on disk) with its Undo, or only where it points. */
function EarlierChange({ status, busy, onUndo }: { status: ClaudeCodeSetupStatus; busy: boolean; onUndo: () => void }) {
  const where = status.configured ? (
    <>
      Claude Code goes through this Leeway (<code>{status.path}</code>).
    </>
  ) : (
    <>
      Leeway changed <code>{status.path}</code> earlier.
    </>
  );
  if (!status.backup) return status.configured ? <p className="muted small">{where}</p> : null;
  return (
    <div className="notice" aria-label="Earlier change">
      <p>
        {where}{' '}
        {status.backup.removesFile
          ? 'Undo removes it again: there was none before.'
          : `Undo puts back the copy in ${status.backup.path}.`}
      </p>
      <button type="button" className="button small" disabled={busy} onClick={onUndo}>
        Undo
      </button>
    </div>
  );
}

/**
 * "Configure Claude Code" (issue 13 §6): writes the env block of Claude Code's settings.json
 * (ANTHROPIC_BASE_URL, ANTHROPIC_AUTH_TOKEN) after showing the change; the core backs the file up
 * first, and Undo puts the backup back — also after a reload, from what the core finds on disk
 * (issue 21 §17). The key field is the Setup tab's: the snippets below use what is typed here.
 */
export function ClaudeCodeConfig({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const status = useResource(CLAUDE_CODE_STATUS).data ?? null;
  const previewer = useAction('setup.claudeCodePreview');
  const configure = useAction('setup.configureClaudeCode');
  const restore = useAction('setup.undoClaudeCode');
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const busy = previewer.pending || configure.pending || restore.pending;

  /** One message line for the three actions: the last one's refusal. */
  const act = async <T,>(pending: Promise<Result<T>>): Promise<T | null> => {
    setError(null);
    const result = await pending;
    if (!result.ok) setError(result.error.message);
    return result.ok ? result.value : null;
  };
  const preview = async (): Promise<void> => {
    const change = await act(previewer.run({ authToken: value }));
    if (change) setStep({ kind: 'preview', change });
  };
  const apply = async (): Promise<void> => {
    const done = await act(configure.run({ authToken: value }));
    if (done) setStep({ kind: 'applied', change: done, backupPath: done.backupPath });
  };
  const undo = async (): Promise<void> => {
    const restored = await act(restore.run());
    if (restored)
      setStep({
        kind: 'undone',
        message: restored.removedFile
          ? `Removed ${restored.path} again: there was none before.`
          : `Restored ${restored.path} from ${restored.restoredFrom}.`,
      });
  };

  return (
    <article className="snippet claude-code-config" aria-labelledby="configure-claude-title">
      <header>
        <h3 id="configure-claude-title">Configure Claude Code</h3>
      </header>
      <p className="muted small">
        Writes ANTHROPIC_BASE_URL and ANTHROPIC_AUTH_TOKEN into the env block of Claude Code&apos;s settings.json (every
        other setting stays), so a plain <code>claude</code> goes through Leeway. A backup is made first.
      </p>
      {status && step.kind !== 'applied' && <EarlierChange status={status} busy={busy} onUndo={() => void undo()} />}
      <div className="inline-form">
        <label htmlFor="claude-code-key">Local key</label>
        <input
          id="claude-code-key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={value}
          placeholder="lw-… (create one in the Keys tab)"
          onChange={(e) => {
            onChange(e.target.value);
            setStep({ kind: 'idle' });
          }}
        />
        <button type="button" className="button" disabled={busy || value.trim() === ''} onClick={() => void preview()}>
          Preview change
        </button>
      </div>
      {step.kind === 'preview' && (
        <div className="settings-preview">
          <p>
            {step.change.exists ? 'Will change' : 'Will create'} <code>{step.change.path}</code>
            {step.change.removed.length > 0 && ` and remove ${step.change.removed.join(', ')} from its env`}.
          </p>
          <DiffView lines={step.change.diff} label="Change to settings.json" />
          {step.change.changes ? (
            <button type="button" className="button primary" disabled={busy} onClick={() => void apply()}>
              Apply
            </button>
          ) : (
            <p className="muted small">The file already says this; nothing to write.</p>
          )}
        </div>
      )}
      {step.kind === 'applied' && (
        <div className="notice success" role="status">
          <p>
            {step.backupPath
              ? `Written ${step.change.path}; the previous state is in ${step.backupPath}.`
              : `${step.change.path} already said this; nothing was written.`}{' '}
            Start a new <code>claude</code> to use it.
          </p>
          {status?.backup && (
            <button type="button" className="button small" disabled={busy} onClick={() => void undo()}>
              Undo
            </button>
          )}
        </div>
      )}
      {step.kind === 'undone' && (
        <p className="notice" role="status">
          {step.message}
        </p>
      )}
      <ErrorNotice message={error} />
    </article>
  );
}
