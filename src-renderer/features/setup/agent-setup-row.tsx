import { useState } from 'react';
import type { Result } from '../../../src-shared/contract/errors';
import type { AgentSetupChange, AgentSetupStatus, AgentSnippet } from '../../../src-shared/domain/agent-setup';
import { CopyButton } from '../../components/copy-button';
import { ErrorNotice } from '../../components/error-notice';
import { useAction } from '../../resources/action';
import { AgentStatusLine, undoText } from './agent-status-line';
import { DiffView } from './diff-view';

type Step =
  | { kind: 'idle' }
  | { kind: 'preview'; change: AgentSetupChange }
  | { kind: 'snippet'; snippet: AgentSnippet }
  | { kind: 'done'; message: string };

function PreviewView({ change, busy, onApply }: { change: AgentSetupChange; busy: boolean; onApply: () => void }) {
  return (
    <div className="settings-preview">
      {change.files.map((f) => (
        <div key={f.path}>
          <p>
            {f.changes ? (f.exists ? 'Will change' : 'Will create') : 'Already says this:'} <code>{f.path}</code>
          </p>
          {f.changes && <DiffView lines={f.diff} label={`Change to ${f.path}`} />}
        </div>
      ))}
      {change.changes ? (
        <button type="button" className="button primary" disabled={busy} onClick={onApply}>
          Apply
        </button>
      ) : (
        <p className="muted small">The files already say this; nothing to write.</p>
      )}
    </div>
  );
}

/**
 * One agent on the Setup tab (issue 23 §2): its status read from disk, Preview → Apply (the core
 * backs each file up first), Undo from the newest backup, and the copy-paste snippet.
 */
export function AgentSetupRow({ status, authToken }: { status: AgentSetupStatus; authToken: string }) {
  const previewer = useAction('setup.agent.preview');
  const applier = useAction('setup.agent.apply');
  const restorer = useAction('setup.agent.undo');
  const snippets = useAction('setup.agent.snippet');
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const busy = previewer.pending || applier.pending || restorer.pending || snippets.pending;
  const agent = status.agent;
  const key = authToken.trim();

  const act = async <T,>(pending: Promise<Result<T>>, next: (value: T) => Step): Promise<void> => {
    setError(null);
    const result = await pending;
    if (result.ok) setStep(next(result.value));
    else setError(result.error.message);
  };
  const done = (message: string): Step => ({ kind: 'done', message });

  return (
    <article className="snippet agent-setup" aria-label={`${status.title} setup`}>
      <header>
        <h3>{status.title}</h3>
        <AgentStatusLine status={status} />
      </header>
      <p className="muted small">
        {status.paths.map((p) => (
          <code key={p}>{p} </code>
        ))}
        — {status.note}
      </p>
      <div className="inline-form">
        <button
          type="button"
          className="button"
          disabled={busy || key === ''}
          onClick={() => void act(previewer.run({ agent, authToken: key }), (change) => ({ kind: 'preview', change }))}
        >
          Preview change
        </button>
        <button
          type="button"
          className="button"
          disabled={busy}
          onClick={() =>
            void act(snippets.run(key === '' ? { agent } : { agent, authToken: key }), (snippet) => ({
              kind: 'snippet',
              snippet,
            }))
          }
        >
          Show snippet
        </button>
        {status.backup && (
          <button
            type="button"
            className="button small"
            disabled={busy}
            title={undoText(status.backup)}
            onClick={() =>
              void act(restorer.run({ agent }), (r) =>
                done(`Undone: ${r.restored.map((x) => x.path).join(', ')} as before.`),
              )
            }
          >
            Undo
          </button>
        )}
      </div>
      {step.kind === 'preview' && (
        <PreviewView
          change={step.change}
          busy={busy}
          onApply={() =>
            void act(applier.run({ agent, authToken: key }), (r) =>
              done(
                r.backups.length > 0
                  ? `Written; the previous state is in ${r.backups.join(', ')}.`
                  : 'Nothing needed writing.',
              ),
            )
          }
        />
      )}
      {step.kind === 'snippet' && (
        <div>
          <p className="muted small">
            For <code>{step.snippet.target}</code> <CopyButton text={step.snippet.text} />
          </p>
          <pre>
            <code>{step.snippet.text}</code>
          </pre>
        </div>
      )}
      {step.kind === 'done' && (
        <p className="notice success" role="status">
          {step.message}
        </p>
      )}
      <ErrorNotice message={error} />
    </article>
  );
}
