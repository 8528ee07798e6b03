import { useState, type FormEvent } from 'react';
import type { ComboView } from '../../../src-shared/domain/combo';
import type { ConnectionView } from '../../../src-shared/domain/connection';
import { Dialog } from '../../components/dialog';
import { DialogActions } from '../../components/dialog-actions';
import { ErrorNotice } from '../../components/error-notice';
import { useFormErrors } from '../../components/use-form-errors';
import { FormField } from '../../components/form-field';
import { useAction } from '../../resources/action';
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
  const save = useAction('combos.upsert');
  const rename = useAction('combos.rename');
  const [form, setForm] = useState<ComboForm>(() => {
    const initial = comboFormFrom(original);
    const first = connections[0];
    return initial.targets.length === 0 && first ? { ...initial, targets: [newTarget(first.name)] } : initial;
  });
  const { errors, setErrors, refuse, formRef } = useFormErrors<ComboErrors>({});
  const busy = save.pending || rename.pending;
  const editing = original !== null;

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    const built = buildComboInput(form);
    if (!built.ok) return refuse(built.errors);
    // A new name is a rename in place (issue 13 §8): save targets and strategy under the stored name, then rename.
    const stored = original?.name ?? built.input.name;
    const result = await save.run({ ...built.input, name: stored });
    if (!result.ok) return refuse(comboErrorsFrom(result.error));
    const renamed = stored === built.input.name ? result : await rename.run({ from: stored, to: built.input.name });
    if (!renamed.ok) return refuse({ name: `${renamed.error.message}. The other changes were saved.` });
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
              ? 'The name is what clients ask for: after a rename they must ask for the new one. Routes follow the rename.'
              : 'Clients ask for this name as their model, e.g. "coding" or "claude:any".'
          }
        >
          {(aria) => (
            <input
              {...aria}
              value={form.name}
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
        <ErrorNotice message={errors.form} />
        <DialogActions onCancel={onClose} busy={busy} submitLabel={editing ? 'Save changes' : 'Create combo'} />
      </form>
    </Dialog>
  );
}
