import { apiFormatOf } from '../../../src-shared/domain/connection';
import { FormField, ToggleField } from '../../components/form-field';
import type { SectionProps } from './connection-fields';
import type { ResponsesApiChoice } from './connection-form';

const RESPONSES_CHOICES: { value: ResponsesApiChoice; label: string }[] = [
  { value: 'auto', label: 'By kind (native for OpenAI)' },
  { value: 'native', label: 'Native' },
  { value: 'translate', label: 'Translate' },
];

const choiceOf = (value: string): ResponsesApiChoice =>
  RESPONSES_CHOICES.find((choice) => choice.value === value)?.value ?? 'auto';

/**
 * Issue 12: whether requests in the other API format may be translated onto this connection and,
 * for OpenAI-format kinds, whether it takes the Responses API (codex) itself or has it translated
 * to Chat Completions. Most OpenAI-compatible servers lack `/responses`, hence "by kind".
 */
export function TranslationFields({ form, errors, update }: SectionProps) {
  const openaiFormat = apiFormatOf(form.kind) === 'openai';
  return (
    <>
      <ToggleField
        id="conn-accept-translated"
        label="Accept translated requests"
        description="Requests in the other API format (e.g. Claude Code on an OpenAI-compatible connection) are translated. Off: only clients of the same format use it."
        checked={form.acceptTranslated}
        onChange={(acceptTranslated) => update({ acceptTranslated })}
      />
      {errors.acceptTranslated && <p className="field-error">{errors.acceptTranslated}</p>}
      {openaiFormat && (
        <FormField
          id="conn-responses-api"
          label="Responses API (codex)"
          error={errors.responsesApi}
          hint="Native: POST /responses goes to this server as it is. Translate: it becomes a Chat Completions request."
        >
          {(aria) => (
            <select
              {...aria}
              value={form.responsesApi}
              onChange={(e) => update({ responsesApi: choiceOf(e.target.value) })}
            >
              {RESPONSES_CHOICES.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </select>
          )}
        </FormField>
      )}
    </>
  );
}
