import { useState, type FormEvent } from 'react';
import type { QuotaPoolView } from '../../../src-shared/domain/quota';
import { Dialog } from '../../components/dialog';
import { DialogActions } from '../../components/dialog-actions';
import { ErrorNotice } from '../../components/error-notice';
import { FormField, ToggleField } from '../../components/form-field';
import { useFormErrors } from '../../components/use-form-errors';
import { useAction } from '../../resources/action';
import { useResource } from '../../resources/resource-context';
import { CONNECTIONS, KEYS } from '../../resources/shared-data';
import { AllocationFields } from './allocation-fields';
import { DimensionRows } from './dimension-fields';
import { buildPoolInput, emptyPoolForm, poolErrorsFrom, type PoolErrors, type PoolForm } from './pool-form';

/** Keys whose errors a change to these form fields clears. */
const clears = (patch: Partial<PoolForm>): ((key: string) => boolean) => {
  const heads = Object.keys(patch).map((k) => (k === 'usePlan' ? 'dimensions' : k));
  return (key) => key === 'form' || heads.some((h) => key === h || key.startsWith(`${h}.`));
};

/**
 * QUI-3: a new pool — its name, one or more connections of one account, its dimensions (or the
 * connection's plan) and the keys sharing it. Checked with the contract's schema, then the core's
 * refusals (an unknown key or connection) are shown at the field they name.
 */
export function CreatePoolModal({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated?: (pool: QuotaPoolView) => void;
}) {
  const upsert = useAction('quota.upsertPool');
  const connectionList = useResource(CONNECTIONS).data ?? [];
  const keyList = useResource(KEYS).data ?? [];
  const [form, setForm] = useState<PoolForm>(emptyPoolForm);
  const { errors, setErrors, refuse, formRef } = useFormErrors<PoolErrors>({});

  const update = (patch: Partial<PoolForm>): void => {
    setForm((f) => ({ ...f, ...patch }));
    const cleared = clears(patch);
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !cleared(k))));
  };
  const toggleConnection = (name: string, on: boolean): void =>
    update({ connections: on ? [...form.connections, name] : form.connections.filter((c) => c !== name) });

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    const built = buildPoolInput(form);
    if (!built.ok) return refuse(built.errors);
    const result = await upsert.run(built.input);
    if (!result.ok) return refuse(poolErrorsFrom(result.error));
    onCreated?.(result.value);
    onClose();
  };

  return (
    <Dialog title="Create pool" onClose={onClose} wide>
      <form ref={formRef} className="quota-form" noValidate onSubmit={(e) => void submit(e)}>
        <FormField id="pool-name" label="Name" hint="Letters, digits, “.”, “_” and “-”." error={errors.name}>
          {(aria) => (
            <input {...aria} data-autofocus value={form.name} onChange={(e) => update({ name: e.target.value })} />
          )}
        </FormField>
        <fieldset
          className="fieldset"
          aria-describedby={errors.connections ? 'pool-connections-error' : undefined}
          aria-invalid={errors.connections ? true : undefined}
        >
          <legend>Connections</legend>
          <p className="field-hint">One account’s connections; several only when they share one quota.</p>
          {connectionList.length === 0 && <p className="muted">No connections yet: add one in Connections first.</p>}
          {connectionList.map((c) => (
            <label key={c.id} className="quota-check">
              <input
                type="checkbox"
                checked={form.connections.includes(c.name)}
                aria-invalid={errors.connections ? true : undefined}
                onChange={(e) => toggleConnection(c.name, e.target.checked)}
              />{' '}
              {c.name}
            </label>
          ))}
          {errors.connections && (
            <p id="pool-connections-error" className="field-error" role="alert">
              {errors.connections}
            </p>
          )}
        </fieldset>
        <fieldset className="fieldset">
          <legend>Dimensions</legend>
          <ToggleField
            id="pool-use-plan"
            label="Use the connection’s plan"
            description="Its manual plan, else the built-in catalog (see Plans below)."
            checked={form.usePlan}
            onChange={(usePlan) => update({ usePlan })}
          />
          {!form.usePlan && (
            <DimensionRows
              idPrefix="pool-dim"
              rows={form.dimensions}
              errors={errors}
              onChange={(dimensions) => update({ dimensions })}
            />
          )}
        </fieldset>
        <AllocationFields
          rows={form.allocations}
          keyNames={keyList.filter((k) => k.revokedAt === null).map((k) => k.name)}
          errors={errors}
          onChange={(allocations) => update({ allocations })}
        />
        <ErrorNotice message={errors.form} />
        <DialogActions onCancel={onClose} busy={upsert.pending} submitLabel="Create pool" busyLabel="Creating…" />
      </form>
    </Dialog>
  );
}
