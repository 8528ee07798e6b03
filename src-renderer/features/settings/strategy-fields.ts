import type { SectionSpec } from './field-spec';

/** Combo strategy settings (`settings.update`); the core refuses values outside the range. */
export const STRATEGY_SECTION: SectionSpec = {
  id: 'comboStrategies',
  title: 'Combo strategies',
  intro:
    'How combos spread requests over their targets. A session pin always decides for its own session first; exclusions, leases and quota apply before any strategy.',
  outOfRange: 'rejected',
  fields: [
    {
      path: 'stickyRoundRobinLimit',
      label: 'Round-robin picks in a row',
      kind: 'int',
      min: 1,
      max: 100,
      help: 'A round-robin combo keeps the target it picked last for this many requests in a row (picks a session pin decided do not count), then moves to the one picked longest ago. 1 = a different target every time.',
    },
  ],
};
