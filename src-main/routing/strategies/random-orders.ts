import type { CandidateFacts } from './facts';

/** Fisher–Yates with the injected rng. */
export function shuffle<T>(items: readonly T[], rng: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const a = out[i];
    const b = out[j];
    if (a === undefined || b === undefined) continue;
    out[i] = b;
    out[j] = a;
  }
  return out;
}

/** `weighted`: each place is drawn with probability weight / remaining weight (without replacement). */
export function orderWeighted(facts: readonly CandidateFacts[], rng: () => number): CandidateFacts[] {
  const left = [...facts];
  const out: CandidateFacts[] = [];
  while (left.length > 0) {
    const total = left.reduce((sum, f) => sum + f.weight, 0);
    let r = rng() * total;
    let at = left.length - 1;
    for (let i = 0; i < left.length; i++) {
      r -= left[i]?.weight ?? 0;
      if (r < 0) {
        at = i;
        break;
      }
    }
    const [picked] = left.splice(at, 1);
    if (picked) out.push(picked);
  }
  return out;
}

/**
 * `strict-random` (REFERENCE-NOTES §4.5): a shuffled deck per combo, each target used once per
 * cycle; the deck's unused keys first (deck order), the ones already used this cycle after them.
 */
export function orderDeck(facts: readonly CandidateFacts[], deck: readonly string[]): CandidateFacts[] {
  const pos = new Map(deck.map((k, i) => [k, i]));
  const inDeck = facts.filter((f) => pos.has(f.key)).sort((a, b) => (pos.get(a.key) ?? 0) - (pos.get(b.key) ?? 0));
  return [...inDeck, ...facts.filter((f) => !pos.has(f.key))];
}
