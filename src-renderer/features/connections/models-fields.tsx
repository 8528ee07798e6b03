import { FormField } from '../../components/form-field';
import type { SectionProps } from './connection-fields';
import { parseModels } from './connection-form';

/** The model ids a connection serves and the extra names (aliases) clients may use for them. */
export function ModelsFields({ form, errors, update }: SectionProps) {
  const models = parseModels(form.models);
  const setAlias = (index: number, patch: Partial<{ alias: string; model: string }>): void =>
    update({ aliases: form.aliases.map((a, i) => (i === index ? { ...a, ...patch } : a)) });
  return (
    <>
      <FormField
        id="conn-models"
        label="Models"
        error={errors.models}
        hint="Comma-separated model ids. Empty: the connection is offered for any model a client asks for."
      >
        {(aria) => (
          <textarea
            {...aria}
            rows={2}
            value={form.models}
            onChange={(e) => update({ models: e.target.value })}
            placeholder="e.g. claude-sonnet-4-5, claude-opus-4-1"
            spellCheck={false}
          />
        )}
      </FormField>
      {models.length > 0 && (
        <ul className="chips" aria-label="Models as entered">
          {models.map((m) => (
            <li key={m} className="chip">
              {m}
            </li>
          ))}
        </ul>
      )}
      <fieldset className="fieldset" aria-describedby={errors.modelAliases ? 'conn-aliases-error' : undefined}>
        <legend>Model aliases</legend>
        <p className="field-hint">A name clients may ask for, sent upstream as the model it maps to.</p>
        {form.aliases.map((a, i) => (
          <div className="alias-row" key={i}>
            <input
              aria-label={`Alias ${i + 1} name`}
              aria-invalid={Boolean(errors.modelAliases) && a.alias.trim() === ''}
              value={a.alias}
              onChange={(e) => setAlias(i, { alias: e.target.value })}
              placeholder="name clients use"
            />
            <span aria-hidden="true">→</span>
            <input
              aria-label={`Alias ${i + 1} upstream model`}
              aria-invalid={Boolean(errors.modelAliases) && a.model.trim() === ''}
              value={a.model}
              onChange={(e) => setAlias(i, { model: e.target.value })}
              placeholder="upstream model id"
              list="conn-models-list"
            />
            <button
              type="button"
              className="button small"
              aria-label={`Remove alias ${i + 1}`}
              onClick={() => update({ aliases: form.aliases.filter((_, j) => j !== i) })}
            >
              Remove
            </button>
          </div>
        ))}
        <datalist id="conn-models-list">
          {models.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
        {errors.modelAliases && (
          <p id="conn-aliases-error" className="field-error">
            {errors.modelAliases}
          </p>
        )}
        <button
          type="button"
          className="button small"
          onClick={() => update({ aliases: [...form.aliases, { alias: '', model: '' }] })}
        >
          Add alias
        </button>
      </fieldset>
    </>
  );
}
