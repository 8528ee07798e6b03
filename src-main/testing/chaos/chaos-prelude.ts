import type { ChaosAction, ChaosWeights } from './chaos-draw';

/** How a chaos upstream's storm opens (see `ChaosUpstreamOptions.prelude`). */
export type PreludeKind = 'shuffled' | 'failures-first';

/** `failures-first`: the failures every breaker counts (three: the test's threshold), the successes, the other failures. */
const GROUPS: readonly (readonly ChaosAction[])[] = [
  ['reset_before', 'unavailable', 'reset_mid'],
  // Successes next, not last: once the breaker opened it shields the upstream, and a storm must
  // still have drawn every action (seed 1927325848 never drew `ok` when successes came last).
  ['ok', 'slow'],
  ['hang', 'stall_error', 'ok_error_body', 'empty_ok'],
];

function shuffled(actions: readonly ChaosAction[], random: () => number): ChaosAction[] {
  const out = [...actions];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as ChaosAction, out[i] as ChaosAction];
  }
  return out;
}

/** Every action the storm can draw, once, in seeded order (grouped for `failures-first`). */
export function stormPrelude(
  kind: PreludeKind,
  actions: readonly ChaosAction[],
  weights: ChaosWeights,
  random: () => number,
): ChaosAction[] {
  const drawable = (action: ChaosAction): boolean => weights[action] > 0;
  if (kind === 'failures-first') return GROUPS.flatMap((group) => shuffled(group.filter(drawable), random));
  return shuffled(actions.filter(drawable), random);
}
