import { COMBO_STRATEGIES, type ComboStrategy } from '../../../src-shared/domain/combo';
import { FormField } from '../../components/form-field';

/** What each strategy does, in one sentence a person can choose by (the README has the same sentences). */
export const STRATEGY_TEXT: Record<ComboStrategy, { label: string; explanation: string }> = {
  priority: {
    label: 'Priority',
    explanation: 'Every request tries the targets in the listed order; later ones serve only when earlier ones cannot.',
  },
  weighted: {
    label: 'Weighted',
    explanation: "New requests are spread at random in proportion to each target's weight (1–100, default 1).",
  },
  'round-robin': {
    label: 'Round-robin',
    explanation:
      'Each new session goes to the target picked least recently, so sessions spread over the accounts while each keeps its own.',
  },
  'context-relay': {
    label: 'Context relay',
    explanation:
      'A conversation stays on the target that last served it and moves down the list only when that target fails; new conversations start at the top.',
  },
  'fill-first': {
    label: 'Fill first',
    explanation:
      'Uses the first target until its provider reports the quota spent, then the next one, in the listed order.',
  },
  p2c: {
    label: 'Power of two choices',
    explanation:
      'Draws two targets at random and takes the one with the better score (recent errors, failures in a row, quota left, recent use).',
  },
  random: { label: 'Random', explanation: 'Each request picks a target uniformly at random.' },
  'least-used': { label: 'Least used', explanation: 'The target picked longest ago (or never) goes first.' },
  'cost-optimized': {
    label: 'Cost optimized',
    explanation: 'The target whose model has the lowest list price goes first; models without a known price go last.',
  },
  'reset-aware': {
    label: 'Reset aware',
    explanation: 'Spends first the quota that resets soonest, from the reset times the providers report.',
  },
  'reset-window': {
    label: 'Reset window',
    explanation:
      'Spends first the quota that would otherwise be lost fastest: what is left divided by the time until its window resets.',
  },
  leeway: {
    label: 'Most quota left',
    explanation: 'The target whose provider reports the most unspent quota goes first.',
  },
  'strict-random': {
    label: 'Strict random',
    explanation: 'Targets are dealt from a shuffled deck: each is used once before any is used again.',
  },
  auto: {
    label: 'Auto',
    explanation: 'Ranks targets by a score of health (40 %), quota left (30 %), latency (20 %) and price (10 %).',
  },
  lkgp: {
    label: 'Last known good',
    explanation: 'The target that last served this combo successfully goes first; the rest follow in the listed order.',
  },
  'context-optimized': {
    label: 'Context optimized',
    explanation:
      'The target with the smallest context window that still fits the request goes first; too small ones go last.',
  },
  'cache-optimized': {
    label: 'Cache optimized',
    explanation:
      'A conversation returns to the target that holds its prompt cache (by session, else by its first 8 KiB); new ones go to the least used.',
  },
  fusion: {
    label: 'Fusion (best of panel)',
    explanation:
      'The targets are a panel and the one with the best success rate answers; Leeway does not fan out one request to all of them.',
  },
  pipeline: {
    label: 'Pipeline (stages)',
    explanation:
      'The targets are stages: requests stay on the stage that served last and move to the next one when it fails.',
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
