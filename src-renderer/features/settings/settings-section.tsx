import type { FormEvent } from 'react';
import { SaveBar } from '../../components/save-bar';
import { PROFILES, type SectionSpec } from './field-spec';
import { FieldInput, fieldId } from './field-input';
import { useSectionForm, type SaveSection } from './use-section-form';

interface Props {
  spec: SectionSpec;
  /** The whole settings object the section's paths point into. */
  values: unknown;
  save: SaveSection;
}

/** One card of settings: plain fields, then a grid with one column per provider profile, and its own Save. */
export function SettingsSection({ spec, values, save }: Props) {
  const form = useSectionForm(spec, values, save);
  const byPath = new Map(form.fields.map((f) => [f.path, f]));
  const titleId = `section-${spec.id}-title`;

  const onSubmit = (e: FormEvent): void => {
    e.preventDefault();
    void form.submit();
  };

  return (
    <form className="settings-card" aria-labelledby={titleId} onSubmit={onSubmit} noValidate>
      <header className="settings-card-header">
        <h3 id={titleId}>{spec.title}</h3>
        <p className="muted small">
          {spec.intro}{' '}
          {spec.outOfRange === 'clamped'
            ? 'Values outside a range are pulled into it.'
            : 'Values outside a range are refused.'}
        </p>
      </header>

      {spec.fields.map((f) => (
        <div className="field-row" key={f.path}>
          {f.kind === 'bool' ? (
            <span className="field-label" />
          ) : (
            <label className="field-label" htmlFor={fieldId(f.path)}>
              {f.label}
            </label>
          )}
          <div>
            <FieldInput
              field={f}
              draft={form.draft(f)}
              error={form.errors[f.path]}
              onChange={(d) => form.change(f.path, d)}
            />
            {f.help && <div className="field-help">{f.help}</div>}
          </div>
        </div>
      ))}

      {spec.profileRows && spec.profileRows.length > 0 && (
        <table className="table profile-grid">
          <thead>
            <tr>
              <th scope="col">Per provider profile</th>
              {PROFILES.map((p) => (
                <th scope="col" key={p.id}>
                  {p.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {spec.profileRows.map((row) => (
              <tr key={row.pattern}>
                <th scope="row">
                  <div>{row.label}</div>
                  {row.help && <div className="field-help">{row.help}</div>}
                </th>
                {PROFILES.map((p) => {
                  const field = byPath.get(row.pattern.replace('{profile}', p.id));
                  if (!field) return <td key={p.id} />;
                  return (
                    <td key={p.id}>
                      <FieldInput
                        compact
                        field={field}
                        draft={form.draft(field)}
                        error={form.errors[field.path]}
                        onChange={(d) => form.change(field.path, d)}
                      />
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      )}

      {form.general.length > 0 && (
        <div className="notice error" role="alert">
          {form.general.map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
      )}
      <SaveBar
        notice={form.notice}
        dirty={form.dirty}
        saving={form.saving}
        saveLabel={`Save ${spec.title.toLowerCase()}`}
        onDiscard={form.discard}
      />
    </form>
  );
}
