import { CONNECTION_KINDS, DEFAULT_BASE_URLS, type ConnectionKind } from '../../../src-shared/domain/connection';
import { FormField, ToggleField } from '../../components/form-field';
import type { ConnectionForm } from './connection-form';
import type { FieldErrors } from './connection-validation';
import { OutboundProxyField } from './outbound-proxy-field';
import { QueueOverrideFields } from './queue-override-fields';
import { TranslationFields } from './translation-fields';

/** What every section of the connection editor receives. */
export interface SectionProps {
  form: ConnectionForm;
  errors: FieldErrors;
  update: (patch: Partial<ConnectionForm>) => void;
}

export const KIND_LABELS: Record<ConnectionKind, string> = {
  anthropic: 'Anthropic API key',
  'claude-oauth': 'Claude subscription (OAuth login)',
  openai: 'OpenAI API key',
  'openai-compatible': 'OpenAI-compatible server',
  gemini: 'Google Gemini API key (or a Gemini-compatible server)',
};

/** Name, kind and base URL: what the connection is and where it sends requests. */
export function IdentityFields({ form, errors, update, editing }: SectionProps & { editing: boolean }) {
  const fallback = DEFAULT_BASE_URLS[form.kind];
  return (
    <>
      <FormField
        id="conn-name"
        label="Name"
        error={errors.name}
        hint={
          editing
            ? 'Renaming keeps its combos, routes, key allowlists, pools and session pins; earlier activity rows keep the old name.'
            : 'Letters, digits, ".", "_" and "-"; shown in logs and combos.'
        }
      >
        {(aria) => (
          <input
            {...aria}
            value={form.name}
            data-autofocus={editing ? undefined : true}
            onChange={(e) => update({ name: e.target.value })}
            placeholder="e.g. work-anthropic"
            autoComplete="off"
          />
        )}
      </FormField>
      <FormField id="conn-kind" label="Kind" error={errors.kind}>
        {(aria) => (
          <select
            {...aria}
            value={form.kind}
            data-autofocus={editing ? true : undefined}
            onChange={(e) => update({ kind: e.target.value as ConnectionKind })}
          >
            {CONNECTION_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {KIND_LABELS[kind]}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField
        id="conn-base-url"
        label="Base URL"
        error={errors.baseUrl}
        hint={fallback ? `Leave empty to use ${fallback}.` : 'Required: the server’s OpenAI-compatible base URL.'}
      >
        {(aria) => (
          <input
            {...aria}
            type="url"
            value={form.baseUrl}
            onChange={(e) => update({ baseUrl: e.target.value })}
            placeholder={fallback ?? 'http://localhost:11434/v1'}
            autoComplete="off"
          />
        )}
      </FormField>
    </>
  );
}

/** Priority, concurrency and the switches that change how the proxy treats the connection. */
export function RoutingFields({ form, errors, update }: SectionProps) {
  return (
    <>
      <div className="field-row">
        <FormField id="conn-priority" label="Priority" error={errors.priority} hint="Lower numbers are tried first.">
          {(aria) => (
            <input
              {...aria}
              type="number"
              min={0}
              max={1000}
              step={1}
              value={form.priority}
              onChange={(e) => update({ priority: e.target.value })}
            />
          )}
        </FormField>
        <FormField
          id="conn-max-concurrent"
          label="Max concurrent requests"
          error={errors.maxConcurrent}
          hint="Empty: no limit."
        >
          {(aria) => (
            <input
              {...aria}
              type="number"
              min={1}
              max={1000}
              step={1}
              value={form.maxConcurrent}
              placeholder="no limit"
              onChange={(e) => update({ maxConcurrent: e.target.value })}
            />
          )}
        </FormField>
      </div>
      <QueueOverrideFields form={form} errors={errors} update={update} />
      <OutboundProxyField form={form} errors={errors} update={update} />
      <TranslationFields form={form} errors={errors} update={update} />
      <ToggleField
        id="conn-enabled"
        label="Enabled"
        description="A disabled connection is kept but never chosen."
        checked={form.enabled}
        onChange={(enabled) => update({ enabled })}
      />
      <ToggleField
        id="conn-disable-cooling"
        label="Never cool down"
        description="Keep choosing this connection after rate limits and errors instead of pausing it; useful for a local server."
        checked={form.disableCooling}
        onChange={(disableCooling) => update({ disableCooling })}
      />
      {(errors.enabled || errors.disableCooling) && (
        <p className="field-error">{errors.enabled ?? errors.disableCooling}</p>
      )}
    </>
  );
}
