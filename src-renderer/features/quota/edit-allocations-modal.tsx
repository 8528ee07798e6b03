import { useState, type FormEvent } from 'react';
import type { QuotaPoolView } from '../../../src-shared/domain/quota';
import { Dialog } from '../../components/dialog';
import { DialogActions } from '../../components/dialog-actions';
import { ErrorNotice } from '../../components/error-notice';
import { useFormErrors } from '../../components/use-form-errors';
import { useAction } from '../../resources/action';
import { useResource } from '../../resources/resource-context';
import { KEYS } from '../../resources/shared-data';
import { AllocationFields } from './allocation-fields';
import { buildPoolInput, poolErrorsFrom, poolFormFrom, type AllocationDraft, type PoolErrors } from './pool-form';

/**
 * QUI-8: a pool's keys, weights, policies and caps. Saving is `quota.upsertPool` under the same
 * name with the pool's connections and dimensions as they are, so only the allocations change.
 */
export function EditAllocationsModal({ pool, onClose }: { pool: QuotaPoolView; onClose: () => void }) {
  const upsert = useAction('quota.upsertPool');
  const keyList = useResource(KEYS).data ?? [];
  const [form, setForm] = useState(() => poolFormFrom(pool));
  const { errors, setErrors, refuse, formRef } = useFormErrors<PoolErrors>({});

  const change = (allocations: AllocationDraft[]): void => {
    setForm((f) => ({ ...f, allocations }));
    setErrors((e) =>
      Object.fromEntries(Object.entries(e).filter(([k]) => !k.startsWith('allocations') && k !== 'form')),
    );
  };

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    const built = buildPoolInput(form);
    if (!built.ok) return refuse(built.errors);
    const result = await upsert.run({ ...built.input, saturationThreshold: pool.saturationThreshold });
    if (!result.ok) return refuse(poolErrorsFrom(result.error));
    onClose();
  };

  return (
    <Dialog title={`Allocations of ${pool.name}`} onClose={onClose} wide>
      <form ref={formRef} className="quota-form" noValidate onSubmit={(e) => void submit(e)}>
        <AllocationFields
          rows={form.allocations}
          keyNames={keyList.filter((k) => k.revokedAt === null).map((k) => k.name)}
          errors={errors}
          onChange={change}
        />
        {/* Errors the allocations cannot show (a connection gone meanwhile) still need a place. */}
        {[errors.form, errors.connections, errors.dimensions, errors.name].map((line, i) => (
          <ErrorNotice key={i} message={line} />
        ))}
        <DialogActions onCancel={onClose} busy={upsert.pending} submitLabel="Save allocations" />
      </form>
    </Dialog>
  );
}
