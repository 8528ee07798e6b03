import { COMBO_STRATEGIES, type ComboStrategy } from '../../../src-shared/domain/combo';
import { FormField } from '../../components/form-field';

/** What each strategy does, in one sentence a person can choose by. */
export const STRATEGY_TEXT: Record<ComboStrategy, { label: string; explanation: string }> = {
  priority: {
    label: 'Priority',
    explanation: 'Every request tries the targets in the listed order; later ones serve only when earlier ones cannot.',
  },
  'round-robin': {
    label: 'Round-robin',
    explanation:
      'Each new session goes to the target picked least recently, so sessions spread over the accounts while each keeps its own.',
  },
};

/** The combo's strategy, with the chosen one explained under the select. */
export function ComboStrategyField({
  value,
  onChange,
}: {
  value: ComboStrategy;
  onChange: (value: ComboStrategy) => void;
}) {
  return (
    <FormField id="combo-strategy" label="Strategy" hint={STRATEGY_TEXT[value].explanation}>
      {(aria) => (
        <select
          {...aria}
          value={value}
          onChange={(e) => {
            const picked = COMBO_STRATEGIES.find((s) => s === e.target.value);
            if (picked) onChange(picked);
          }}
        >
          {COMBO_STRATEGIES.map((s) => (
            <option key={s} value={s}>
              {STRATEGY_TEXT[s].label}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}
