import { describe, expect, it } from 'vitest';
import { EMPTY_PICKS, orderRoundRobin, recordPick } from './round-robin';

const id = (s: string) => s;

describe('round-robin strategy (pure)', () => {
  it('issue 9 §2: with no memory the listed order stands, and the same array comes back', () => {
    const targets = ['a', 'b', 'c'];
    expect(orderRoundRobin(targets, undefined, id)).toBe(targets);
  });

  it('issue 9 §2: the least recently picked target comes first; never picked counts as oldest, ties keep the order', () => {
    let state = recordPick(EMPTY_PICKS, 'main', 'a', ['a', 'b', 'c']);
    expect(orderRoundRobin(['a', 'b', 'c'], state.combos.get('main'), id)).toEqual(['b', 'c', 'a']);
    state = recordPick(state, 'main', 'b', ['a', 'b', 'c']);
    expect(orderRoundRobin(['a', 'b', 'c'], state.combos.get('main'), id)).toEqual(['c', 'a', 'b']);
    state = recordPick(state, 'main', 'c', ['a', 'b', 'c']);
    expect(orderRoundRobin(['a', 'b', 'c'], state.combos.get('main'), id)).toEqual(['a', 'b', 'c']);
  });

  it('issue 9 §2: memory is per combo and forgets targets a combo no longer lists', () => {
    const state = recordPick(recordPick(EMPTY_PICKS, 'one', 'a', ['a', 'b']), 'two', 'b', ['b']);
    expect(orderRoundRobin(['a', 'b'], state.combos.get('two'), id)).toEqual(['a', 'b']);
    expect(orderRoundRobin(['a', 'b'], state.combos.get('one'), id)).toEqual(['b', 'a']);
    expect([...(recordPick(state, 'one', 'b', ['b']).combos.get('one')?.keys() ?? [])]).toEqual(['b']);
  });
});

/** The order as a full stable sort gives it (the definition the fast paths must match). */
function sortedReference(
  candidates: readonly string[],
  memory: ReadonlyMap<string, number>,
  sticky: string | null,
): string[] {
  const ranked = candidates.map((key, index) => ({ key, index, at: memory.get(key) ?? -1 }));
  ranked.sort((a, b) => {
    if (sticky !== null && (a.key === sticky) !== (b.key === sticky)) return a.key === sticky ? -1 : 1;
    return a.at - b.at || a.index - b.index;
  });
  return ranked.map((r) => r.key);
}

describe('round-robin fast paths', () => {
  it('ROUTE-1: for 2 to 5 candidates (repeats included) the order equals the full sort, and an unmoved order is the same array', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const names = ['a', 'b', 'c', 'd'];
    for (let round = 0; round < 2_000; round++) {
      const candidates = Array.from({ length: 2 + rand(4) }, () => names[rand(4)] ?? 'a');
      const memory = new Map<string, number>();
      for (const name of names) if (rand(3) > 0) memory.set(name, rand(5));
      const run = rand(2) === 0 ? undefined : { key: names[rand(4)] ?? 'a', count: 1 + rand(3) };
      const limit = 1 + rand(3);
      const sticky = run !== undefined && run.count < limit ? run.key : null;
      const got = orderRoundRobin(candidates, memory, id, run, limit);
      const want = memory.size === 0 ? candidates : sortedReference(candidates, memory, sticky);
      expect(got, JSON.stringify({ candidates, memory: [...memory], run, limit })).toEqual(want);
      if (want.every((k, i) => k === candidates[i])) expect(got).toBe(candidates);
    }
  });

  it('ROUTE-1: two candidates swap exactly when the first was picked more recently', () => {
    const memory = new Map([
      ['a', 2],
      ['b', 1],
    ]);
    expect(orderRoundRobin(['a', 'b'], memory, id)).toEqual(['b', 'a']);
    const same = ['b', 'a'];
    expect(orderRoundRobin(same, memory, id)).toBe(same);
    // A sticky run keeps the most recent first until it has had its picks.
    expect(orderRoundRobin(['b', 'a'], memory, id, { key: 'a', count: 1 }, 2)).toEqual(['a', 'b']);
  });
});
