/**
 * Round-robin memory of one combo: when each target was last picked, as a pick counter (no clock
 * needed, no ties). Keys are `connectionId` + NUL + upstream model, so a combo listing one
 * connection twice (two models) rotates over both entries.
 */
export type PickMemory = ReadonlyMap<string, number>;

/** The combo's most recent pick and how many picks in a row it has had (stickiness). */
export interface PickRun {
  readonly key: string;
  readonly count: number;
}

export interface PickState {
  /** Per combo name. */
  readonly combos: ReadonlyMap<string, PickMemory>;
  /** Per combo name: the current run of the same target. */
  readonly runs: ReadonlyMap<string, PickRun>;
  readonly counter: number;
}

export const EMPTY_PICKS: PickState = { combos: new Map(), runs: new Map(), counter: 0 };

/** `stickyRoundRobinLimit`'s default: every pick moves on (no stickiness). */
export const DEFAULT_STICKY_LIMIT = 1;

/** The memory key of a target. */
export function pickKeyOf(connectionId: string, model: string): string {
  return `${connectionId}\u0000${model}`;
}

/**
 * The least recently picked target first (never picked counts as oldest; ties keep the combo's
 * order), so new sessions spread over the accounts. With `stickyLimit` N > 1 the most recent pick
 * stays first until it has had N picks in a row (the reference's sticky round-robin); a run whose
 * target is no longer a candidate (excluded, cooling) rotates at once. Pure; the same array when
 * nothing moves.
 */
export function orderRoundRobin<T>(
  candidates: readonly T[],
  memory: PickMemory | undefined,
  keyOf: (candidate: T) => string,
  run: PickRun | undefined = undefined,
  stickyLimit: number = DEFAULT_STICKY_LIMIT,
): readonly T[] {
  if (candidates.length < 2 || !memory || memory.size === 0) return candidates;
  const sticky = run !== undefined && run.count < stickyLimit ? run.key : null;
  // The comparator is a total order (sticky first, oldest pick, listed position), so the listed
  // order stands exactly when each neighbour pair is in order: check that before sorting.
  let moved = false;
  for (let i = 1; i < candidates.length && !moved; i++) {
    const a = candidates[i - 1];
    const b = candidates[i];
    if (a !== undefined && b !== undefined && !inOrder(keyOf(a), keyOf(b), memory, sticky)) moved = true;
  }
  if (!moved) return candidates;
  // Two candidates out of order: the other one first (the common two-account combo).
  const a = candidates[0];
  const b = candidates[1];
  if (candidates.length === 2 && a !== undefined && b !== undefined) return [b, a];
  const ranked = candidates.map((candidate, index) => ({ candidate, index, at: memory.get(keyOf(candidate)) ?? -1 }));
  ranked.sort((x, y) => {
    if (sticky !== null) {
      const sx = keyOf(x.candidate) === sticky;
      if (sx !== (keyOf(y.candidate) === sticky)) return sx ? -1 : 1;
    }
    return x.at - y.at || x.index - y.index;
  });
  return ranked.map((r) => r.candidate);
}

/** Whether a target keyed `ka` may stay before one keyed `kb` (listed first, so ties keep it first). */
function inOrder(ka: string, kb: string, memory: PickMemory, sticky: string | null): boolean {
  if (sticky !== null && (ka === sticky) !== (kb === sticky)) return ka === sticky;
  return (memory.get(ka) ?? -1) <= (memory.get(kb) ?? -1);
}

/** Records that `key` was picked for `combo` now; the memory keeps only keys of current targets. */
export function recordPick(state: PickState, combo: string, key: string, liveKeys: readonly string[]): PickState {
  const counter = state.counter + 1;
  const before = state.combos.get(combo);
  const memory = new Map<string, number>();
  for (const k of liveKeys) {
    const at = before?.get(k);
    if (at !== undefined) memory.set(k, at);
  }
  memory.set(key, counter);
  const combos = new Map(state.combos);
  combos.set(combo, memory);
  const last = state.runs.get(combo);
  const runs = new Map(state.runs);
  runs.set(combo, { key, count: last?.key === key ? last.count + 1 : 1 });
  return { combos, runs, counter };
}
