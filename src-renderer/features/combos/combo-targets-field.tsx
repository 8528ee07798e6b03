import type { ConnectionView } from '../../../src-shared/domain/connection';
import { ReorderButtons } from '../../components/reorder-buttons';
import { moveRow, useFocusAfterRender } from '../../components/use-focus-after-render';
import { newTarget, type ComboErrors, type TargetDraft } from './combo-form';

/**
 * The ordered targets of a combo: each a connection and an optional pinned model, with buttons to
 * move a row up or down and to remove it. Order is the order the proxy tries them in.
 */
export function ComboTargetsField({
  targets,
  connections,
  errors,
  weighted,
  onChange,
}: {
  targets: TargetDraft[];
  connections: ConnectionView[];
  errors: ComboErrors;
  /** The `weighted` strategy: each row gets its weight field. */
  weighted: boolean;
  onChange: (targets: TargetDraft[]) => void;
}) {
  const focusNext = useFocusAfterRender();
  const set = (index: number, patch: Partial<TargetDraft>): void =>
    onChange(targets.map((t, i) => (i === index ? { ...t, ...patch } : t)));
  // Keep focus on the same button of a moved row so repeated presses keep moving it.
  const move = (index: number, by: -1 | 1): void => {
    const moved = moveRow(targets, index, by, (row) => `target-${row.key}`);
    if (!moved) return;
    focusNext(moved.focus);
    onChange(moved.rows);
  };
  const add = (): void => {
    const row = newTarget(connections[0]?.name ?? '');
    focusNext([`target-${row.key}-connection`]);
    onChange([...targets, row]);
  };

  const remove = (index: number): void => {
    const neighbour = targets[index + 1] ?? targets[index - 1];
    focusNext(neighbour ? [`target-${neighbour.key}-connection`] : ['combo-add-target']);
    onChange(targets.filter((_, j) => j !== index));
  };

  return (
    <fieldset className="fieldset" aria-describedby={errors.targets ? 'combo-targets-error' : undefined}>
      <legend>Targets, in the order they are tried</legend>
      <p className="field-hint">
        Leave the model empty to send the model the client asked for; fill it to pin this target to one model.
      </p>
      {targets.length === 0 && <p className="muted small">No targets yet.</p>}
      <ol className="combo-targets">
        {targets.map((t, i) => {
          const known = connections.find((c) => c.name === t.connection);
          const rowError = errors[`targets.${i}`];
          return (
            <li key={t.key} className="combo-target">
              <div className="combo-target-fields">
                <label htmlFor={`target-${t.key}-connection`}>Target {i + 1} connection</label>
                <select
                  id={`target-${t.key}-connection`}
                  value={t.connection}
                  aria-invalid={Boolean(rowError)}
                  aria-describedby={rowError ? `target-${t.key}-error` : undefined}
                  onChange={(e) => set(i, { connection: e.target.value })}
                >
                  {t.connection === '' && <option value="">Choose a connection</option>}
                  {!known && t.connection !== '' && <option value={t.connection}>{t.connection} (not found)</option>}
                  {connections.map((c) => (
                    <option key={c.id} value={c.name}>
                      {c.name}
                    </option>
                  ))}
                </select>
                <label htmlFor={`target-${t.key}-model`}>Target {i + 1} model (optional)</label>
                <input
                  id={`target-${t.key}-model`}
                  value={t.model}
                  list={`target-${t.key}-models`}
                  placeholder="the client’s model"
                  onChange={(e) => set(i, { model: e.target.value })}
                  spellCheck={false}
                />
                <datalist id={`target-${t.key}-models`}>
                  {(known?.models ?? []).map((m) => (
                    <option key={m} value={m} />
                  ))}
                </datalist>
                {weighted && (
                  <>
                    <label htmlFor={`target-${t.key}-weight`}>Target {i + 1} weight (1–100)</label>
                    <input
                      id={`target-${t.key}-weight`}
                      type="number"
                      min={1}
                      max={100}
                      step={1}
                      inputMode="numeric"
                      value={t.weight}
                      placeholder="1"
                      onChange={(e) => set(i, { weight: e.target.value })}
                    />
                  </>
                )}
              </div>
              <div className="combo-target-actions">
                <ReorderButtons
                  id={`target-${t.key}`}
                  index={i}
                  count={targets.length}
                  noun="target"
                  onMove={(by) => move(i, by)}
                  onRemove={() => remove(i)}
                />
              </div>
              {rowError && (
                <p id={`target-${t.key}-error`} className="field-error">
                  {rowError}
                </p>
              )}
            </li>
          );
        })}
      </ol>
      {errors.targets && (
        <p id="combo-targets-error" className="field-error">
          {errors.targets}
        </p>
      )}
      <button
        type="button"
        id="combo-add-target"
        className="button small"
        onClick={add}
        disabled={connections.length === 0}
      >
        Add target
      </button>
    </fieldset>
  );
}
