import { FormField } from '../../components/form-field';
import type { SectionProps } from './connection-fields';

/**
 * The credential, write-only: never prefilled and never read back. Left empty on edit, the core
 * keeps the stored secret; the stored hint says which one that is.
 */
export function SecretFields({
  form,
  errors,
  update,
  editing,
  secretHint,
}: SectionProps & { editing: boolean; secretHint: string | null }) {
  const keep = editing
    ? secretHint
      ? `Stored: ${secretHint}. Leave empty to keep it.`
      : 'No credential stored yet.'
    : null;
  if (form.kind !== 'claude-oauth') {
    const optional = form.kind === 'openai-compatible';
    return (
      <FormField
        id="conn-api-key"
        label={optional ? 'API key (optional)' : 'API key'}
        error={errors.secret}
        hint={
          keep ??
          (optional
            ? 'Many local servers need none. Stored encrypted; never shown again.'
            : 'Stored encrypted; never shown again.')
        }
      >
        {(aria) => (
          <input
            {...aria}
            type="password"
            value={form.apiKey}
            onChange={(e) => update({ apiKey: e.target.value })}
            placeholder={editing ? 'unchanged' : ''}
            autoComplete="new-password"
            spellCheck={false}
          />
        )}
      </FormField>
    );
  }
  return (
    <fieldset className="fieldset">
      <legend>Claude login</legend>
      <p className="field-hint">
        {keep ?? 'Tokens from a Claude subscription login. Stored encrypted; never shown again.'}
      </p>
      <FormField id="conn-access-token" label="Access token" error={errors.secret}>
        {(aria) => (
          <input
            {...aria}
            type="password"
            value={form.accessToken}
            onChange={(e) => update({ accessToken: e.target.value })}
            placeholder={editing ? 'unchanged' : ''}
            autoComplete="new-password"
            spellCheck={false}
          />
        )}
      </FormField>
      <FormField id="conn-refresh-token" label="Refresh token (optional)">
        {(aria) => (
          <input
            {...aria}
            type="password"
            value={form.refreshToken}
            onChange={(e) => update({ refreshToken: e.target.value })}
            placeholder={editing ? 'unchanged' : ''}
            autoComplete="new-password"
            spellCheck={false}
          />
        )}
      </FormField>
      <FormField id="conn-expires-at" label="Access token expires (optional)">
        {(aria) => (
          <input
            {...aria}
            type="datetime-local"
            value={form.expiresAt}
            onChange={(e) => update({ expiresAt: e.target.value })}
          />
        )}
      </FormField>
    </fieldset>
  );
}
