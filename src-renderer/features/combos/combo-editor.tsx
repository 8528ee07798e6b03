import { useState, type FormEvent } from 'react';
import type { ComboView } from '../../../src-shared/domain/combo';
import type { ConnectionView } from '../../../src-shared/domain/connection';
import { useApi } from '../../api/api-context';
import { Dialog } from '../../components/dialog';
import { useFormErrors } from '../../components/use-form-errors';
import { FormField } from '../../components/form-field';
import {
  buildComboInput,
  comboErrorsFrom,
  comboFormFrom,
  newTarget,
  type ComboErrors,
  type ComboForm,
} from './combo-form';
import { ComboStrategyField } from './combo-strategy-field';
import { ComboTargetsField } from './combo-targets-field';
import './combos.css';

/** Creates a combo (`original` null) or edits one: its name and its ordered, optionally pinned targets. */
export function ComboEditor({
  original,
  connections,
  onClose,
}: {
  original: ComboView | null;
  connections: ConnectionView[];
  onClose: () => void;
}) {
  const api = useApi();
  const [form, setForm] = useState<ComboForm>(() => {
    const initial = comboFormFrom(original);
    const first = connections[0];
    return initial.targets.length === 0 && first ? { ...initial, targets: [newTarget(first.name)] } : initial;
  });
  const { errors, setErrors, refuse, formRef } = useFormErrors<ComboErrors>({});
  const [busy, setBusy] = useState(false);
  const editing = original !== null;

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    const built = buildComboInput(form);
    if (!built.ok) return refuse(built.errors);
    setBusy(true);
    const result = await api.call('combos.upsert', built.input);
    setBusy(false);
    if (!result.ok) return refuse(comboErrorsFrom(result.error));
    onClose();
  };

  return (
    <Dialog title={editing ? `Edit combo ${original.name}` : 'New combo'} onClose={onClose} wide>
      <form ref={formRef} noValidate onSubmit={(e) => void submit(e)}>
        <FormField
          id="combo-name"
          label="Name"
          error={errors.name}
          hint={
            editing
              ? 'The name is what clients ask for. To rename, create a new combo and remove this one.'
              : 'Clients ask for this name as their model, e.g. "coding" or "claude:any".'
          }
        >
          {(aria) => (
            <input
              {...aria}
              value={form.name}
              readOnly={editing}
              data-autofocus={editing ? undefined : true}
              onChange={(e) => {
                setForm({ ...form, name: e.target.value });
                setErrors(({ name: _drop, form: _form, ...rest }) => rest);
              }}
              placeholder="e.g. coding"
              autoComplete="off"
              spellCheck={false}
            />
          )}
        </FormField>
        <ComboStrategyField value={form.strategy} onChange={(strategy) => setForm({ ...form, strategy })} />
        <ComboTargetsField
          targets={form.targets}
          connections={connections}
          errors={errors}
          weighted={form.strategy === 'weighted'}
          onChange={(targets) => {
            setForm({ ...form, targets });
            setErrors(({ name }) => (name ? { name } : {}));
          }}
        />
        {errors.form && (
          <p className="notice error" role="alert">
            {errors.form}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={busy}>
            {busy ? 'Saving…' : editing ? 'Save changes' : 'Create combo'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
