import { useState } from 'react';
import type { Result } from '../../../src-shared/contract/errors';
import type { ConnectionView } from '../../../src-shared/domain/connection';
import type { ConnectionCooldownRow } from '../../../src-shared/domain/cooldown';
import { ConfirmButton } from '../../components/confirm-button';
import { useAction } from '../../resources/action';
import { ClaudeStatus } from '../claude/claude-status';
import { ImportClaudeButton } from '../claude/import-claude';
import { KIND_LABELS } from './connection-fields';
import { inputFromView } from './connection-form';
import { ConnectionStatusChip } from './connection-status-chip';
import { ConnectionTestResultView, type TestOutcome } from './connection-test-result';

/** One connection: what it is, whether it serves now, and the actions on it. */
export function ConnectionRow({
  view,
  cooldown,
  loaded,
  skewMs,
  onEdit,
}: {
  view: ConnectionView;
  cooldown: ConnectionCooldownRow | undefined;
  loaded: boolean;
  skewMs: number;
  onEdit: (view: ConnectionView) => void;
}) {
  const toggle = useAction('connections.upsert');
  const adopt = useAction('connections.upsert');
  const tester = useAction('connections.test');
  const reset = useAction('connections.reset');
  const remove = useAction('connections.remove');
  const [error, setError] = useState<string | null>(null);
  const [test, setTest] = useState<TestOutcome | null>(null);

  /** The row's one error line says the last refusal of enable, reset, remove or adding models. */
  const report = async <T,>(pending: Promise<Result<T>>): Promise<boolean> => {
    setError(null);
    const result = await pending;
    if (!result.ok) setError(result.error.message);
    return result.ok;
  };
  const upsert = (patch: Partial<ConnectionView>) => inputFromView({ ...view, ...patch });
  const runTest = async (): Promise<void> => {
    const result = await tester.run({ name: view.name });
    setTest(result.ok ? { ok: true, result: result.value } : { ok: false, error: result.error });
  };
  const addModels = async (models: string[]): Promise<void> => {
    if (await report(adopt.run(upsert({ models: [...view.models, ...models] })))) setTest(null);
  };
  const lastError = cooldown?.lastError ?? null;
  const isClaude = view.kind === 'claude-oauth';

  return (
    <>
      <tr className={view.enabled ? undefined : 'dimmed'} data-testid={`connection-row-${view.name}`}>
        <td>
          <strong>{view.name}</strong>
          <div className="muted small">{view.effectiveBaseUrl}</div>
        </td>
        <td title={KIND_LABELS[view.kind]}>
          {view.kind}
          {view.kind === 'claude-oauth' && view.providerSpecificData.lowPriorityMode === true && (
            <div className="small muted">Low priority on</div>
          )}
          {view.kind === 'claude-oauth' && view.providerSpecificData.autoLimitReset === true && (
            <div className="small muted">Auto limit reset on</div>
          )}
        </td>
        <td className="models-cell">
          {view.models.length === 0 ? <span className="muted">any model</span> : view.models.join(', ')}
        </td>
        <td className="num">{view.priority}</td>
        <td>
          <ConnectionStatusChip
            name={view.name}
            row={cooldown}
            loaded={loaded}
            skewMs={skewMs}
            resetting={reset.pending}
            onReset={() => void report(reset.run({ name: view.name }))}
          />
          {lastError && (
            <div className="last-error small" title={lastError}>
              {lastError}
            </div>
          )}
          {isClaude && cooldown?.testStatus === 'needs_reauth' && (
            <ImportClaudeButton presetName={view.name} label="Re-import" small />
          )}
          {isClaude && <ClaudeStatus view={view} skewMs={skewMs} />}
        </td>
        <td>{view.secretHint ? <code>{view.secretHint}</code> : <span className="muted">none</span>}</td>
        <td>
          <input
            type="checkbox"
            className="switch"
            checked={view.enabled}
            disabled={toggle.pending}
            aria-label={`Enabled: ${view.name}`}
            onChange={() => void report(toggle.run(upsert({ enabled: !view.enabled })))}
          />
        </td>
        <td className="actions">
          <div className="row-actions">
            <button
              type="button"
              className="button small"
              disabled={tester.pending}
              onClick={() => void runTest()}
              aria-label={`Test ${view.name}`}
            >
              {tester.pending ? 'Testing…' : 'Test'}
            </button>
            <button
              type="button"
              className="button small"
              onClick={() => onEdit(view)}
              aria-label={`Edit ${view.name}`}
            >
              Edit
            </button>
            <ConfirmButton
              label="Remove"
              question={`Remove ${view.name}?`}
              onConfirm={() => void report(remove.run({ name: view.name }))}
              disabled={remove.pending}
            />
          </div>
        </td>
      </tr>
      {(error || test) && (
        <tr className="row-detail">
          <td colSpan={8}>
            {error && (
              <p className="error-text" role="alert">
                {error}
              </p>
            )}
            {test && (
              <ConnectionTestResultView
                outcome={test}
                currentModels={view.models}
                busy={adopt.pending}
                onAddModels={(models) => void addModels(models)}
                onDismiss={() => setTest(null)}
              />
            )}
          </td>
        </tr>
      )}
    </>
  );
}
