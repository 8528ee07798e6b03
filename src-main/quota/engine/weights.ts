/**
 * The weights in force for a pool's allocations: as written, or an equal split (100 / n each) when
 * every weight is 0 (REFERENCE §12.4 step 5). A mixed set such as 50/0 is kept as written.
 */
export function effectiveWeights(weights: readonly number[]): number[] {
  const n = weights.length;
  if (n === 0) return [];
  for (let i = 0; i < n; i++) {
    if ((weights[i] ?? 0) !== 0) return weights.slice();
  }
  return new Array<number>(n).fill(100 / n);
}
