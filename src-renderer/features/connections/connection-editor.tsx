import { useState, type FormEvent } from 'react';
import type { ConnectionView } from '../../../src-shared/domain/connection';
import { Dialog } from '../../components/dialog';
import { DialogActions } from '../../components/dialog-actions';
import { ErrorNotice } from '../../components/error-notice';
import { useFormErrors } from '../../components/use-form-errors';
import { useAction } from '../../resources/action';
import { ClaudeSection } from './claude-section';
import { IdentityFields, RoutingFields } from './connection-fields';
import { emptyForm, formFromView, parseModels, type ConnectionForm } from './connection-form';
import { buildConnectionInput, errorsFromAppError, type FieldErrors, type FieldKey } from './connection-validation';
import { ModelsFields } from './models-fields';
import { DiscoveredModels } from './discovered-models';
import { SecretFields } from './secret-fields';
import './connections.css';

/** Which error a change to a form field clears. */
const FIELD_OF: Record<keyof ConnectionForm, FieldKey> = {
  name: 'name',
  kind: 'kind',
  baseUrl: 'baseUrl',
  apiKey: 'secret',
  accessToken: 'secret',
  refreshToken: 'secret',
  expiresAt: 'secret',
  models: 'models',
  aliases: 'modelAliases',
  priority: 'priority',
  enabled: 'enabled',
  maxConcurrent: 'maxConcurrent',
  queueMaxWaitMs: 'rateLimitOverrides',
  queueExecutionMaxWaitMs: 'rateLimitOverrides',
  queueMaxDepth: 'rateLimitOverrides',
  disableCooling: 'disableCooling',
  outboundProxyUrl: 'outboundProxyUrl',
  egressIp: 'outboundProxyUrl',
  acceptTranslated: 'acceptTranslated',
  responsesApi: 'responsesApi',
  lowPriorityMode: 'providerSpecificData',
  autoLimitReset: 'providerSpecificData',
  otherProviderData: 'providerSpecificData',
};

/**
 * Adds a connection (`original` null) or edits one, every field the core supports. Checks the input
 * with the contract's schema first, then shows the core's own refusals next to the fields they name.
 */
export function ConnectionEditor({
  original,
  onClose,
  onSaved,
}: {
  original: ConnectionView | null;
  onClose: () => void;
  onSaved?: (view: ConnectionView) => void;
}) {
  const save = useAction('connections.upsert');
  const rename = useAction('connections.rename');
  const [form, setForm] = useState<ConnectionForm>(() => (original ? formFromView(original) : emptyForm()));
  const { errors, setErrors, refuse, formRef } = useFormErrors<FieldErrors>({});
  const busy = save.pending || rename.pending;
  const editing = original !== null;
  // The name the core has it under; a rename changes it only once the core has renamed it.
  const storedName = original?.name ?? null;

  const update = (patch: Partial<ConnectionForm>): void => {
    setForm((current) => ({ ...current, ...patch }));
    const touched = new Set(Object.keys(patch).map((k) => FIELD_OF[k as keyof ConnectionForm]));
    if ('kind' in patch) touched.add('secret').add('baseUrl');
    setErrors((current) =>
      Object.fromEntries(Object.entries(current).filter(([k]) => !touched.has(k as FieldKey) && k !== 'form')),
    );
  };

  const submit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    const built = buildConnectionInput(form, original);
    if (!built.ok) return refuse(built.errors);
    // A new name is a rename in place (issue 13 §8): save the rest under the stored name, then rename.
    const stored = storedName ?? built.input.name;
    const result = await save.run({ ...built.input, name: stored });
    if (!result.ok) return refuse(errorsFromAppError(result.error));
    const renamed = stored === built.input.name ? result : await rename.run({ from: stored, to: built.input.name });
    if (!renamed.ok) {
      onSaved?.(result.value);
      return refuse({ name: `${renamed.error.message}. The other changes were saved.` });
    }
    onSaved?.(renamed.value);
    onClose();
  };

  const sectionProps = { form, errors, update };
  return (
    <Dialog title={editing ? `Edit ${original.name}` : 'Add connection'} onClose={onClose} wide>
      <form ref={formRef} className="connection-form" noValidate onSubmit={(e) => void submit(e)}>
        <IdentityFields {...sectionProps} editing={editing} />
        <SecretFields {...sectionProps} editing={editing} secretHint={original?.secretHint ?? null} />
        <ClaudeSection {...sectionProps} />
        <ModelsFields {...sectionProps} />
        <DiscoveredModels connection={original?.name ?? null} namesOwnModels={parseModels(form.models).length > 0} />
        <RoutingFields {...sectionProps} />
        <ErrorNotice message={errors.form} />
        <DialogActions onCancel={onClose} busy={busy} submitLabel={editing ? 'Save changes' : 'Add connection'} />
      </form>
    </Dialog>
  );
}
