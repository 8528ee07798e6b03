/** How many combos keep DRR state; the least recently used is forgotten first. */
export const MAX_DRR_COMBOS = 200;

/**
 * Deficit round robin state per combo name (REFERENCE §12.7 step 3), least recently used evicted
 * past `maxCombos`. Deficits are keyed by the target's connection id (or its position when it has
 * none), so a reordered target list keeps its history.
 */
export class DrrState {
  private readonly combos = new Map<string, Map<string, number>>();

  constructor(private readonly maxCombos: number = MAX_DRR_COMBOS) {}

  get size(): number {
    return this.combos.size;
  }

  has(comboName: string): boolean {
    return this.combos.has(comboName);
  }

  /** The deficits of one combo, marked most recently used (created when new). */
  deficitsOf(comboName: string): Map<string, number> {
    let deficits = this.combos.get(comboName);
    if (deficits !== undefined) {
      this.combos.delete(comboName);
    } else {
      deficits = new Map();
      if (this.combos.size >= this.maxCombos) {
        const oldest = this.combos.keys().next();
        if (oldest.done !== true) this.combos.delete(oldest.value);
      }
    }
    this.combos.set(comboName, deficits);
    return deficits;
  }
}

/**
 * The weights in force: as given (a missing or invalid weight is 1, an explicit 0 stays 0 and so
 * disables the target against weighted siblings); all zero means unweighted, an equal share.
 */
export function drrWeights(weights: readonly (number | undefined)[]): number[] {
  const out = weights.map((w) => (w === undefined || !Number.isFinite(w) || w < 0 ? 1 : w));
  if (out.every((w) => w === 0)) return out.map(() => 1);
  return out;
}
