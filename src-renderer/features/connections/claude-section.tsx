import { ToggleField } from '../../components/form-field';
import type { SectionProps } from './connection-fields';

/** What each Claude option does and what it costs, in one line each (PROD-5). */
export const CLAUDE_OPTION_TEXT = {
  lowPriorityMode:
    'At the 5-hour usage limit, accept Anthropic’s slower lane and keep going instead of failing over. Answers can take much longer.',
  autoLimitReset:
    'At the usage limit, claim the subscription’s limit reset (when offered) and retry at full speed. Uses up that reset for the window.',
} as const;

/** Options only Claude subscription (OAuth) connections have, kept in providerSpecificData; both off by default. */
export function ClaudeSection({ form, errors, update }: SectionProps) {
  if (form.kind !== 'claude-oauth') return null;
  return (
    <fieldset className="fieldset">
      <legend>Claude</legend>
      <ToggleField
        id="conn-low-priority"
        label="Low priority"
        description={CLAUDE_OPTION_TEXT.lowPriorityMode}
        checked={form.lowPriorityMode}
        onChange={(lowPriorityMode) => update({ lowPriorityMode })}
      />
      <ToggleField
        id="conn-auto-limit-reset"
        label="Auto limit reset"
        description={CLAUDE_OPTION_TEXT.autoLimitReset}
        checked={form.autoLimitReset}
        onChange={(autoLimitReset) => update({ autoLimitReset })}
      />
      {errors.providerSpecificData && <p className="field-error">{errors.providerSpecificData}</p>}
    </fieldset>
  );
}
