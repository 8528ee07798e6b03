import type { ComboView } from '../../../src-shared/domain/combo';
import type { Target } from '../resolve-targets';
import { EMPTY_PICKS, orderRoundRobin, pickKeyOf, recordPick, type PickState } from './round-robin';

/** The combos' round-robin memory, in memory only: a restart starts every rotation over. */
export interface RoundRobinStore {
  /** Candidates in the combo's strategy order (`priority`: as given). */
  order(combo: ComboView | null, candidates: readonly Target[]): readonly Target[];
  /** The strategy picked `target` for a request no pin decided. */
  picked(combo: ComboView, target: Target, candidates: readonly Target[]): void;
}

const keyOf = (t: Target) => pickKeyOf(t.connection.view.id, t.upstreamModel);

export function createRoundRobinStore(): RoundRobinStore {
  let state: PickState = EMPTY_PICKS;
  return {
    order(combo, candidates) {
      if (combo?.strategy !== 'round-robin') return candidates;
      return orderRoundRobin(candidates, state.combos.get(combo.name), keyOf);
    },
    picked(combo, target, candidates) {
      if (combo.strategy !== 'round-robin') return;
      state = recordPick(state, combo.name, keyOf(target), candidates.map(keyOf));
    },
  };
}
