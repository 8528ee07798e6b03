import { describe, expect, it } from 'vitest';
import { orderByStrategy } from './order-strategy';
import { EMPTY_PICKS, orderRoundRobin, recordPick, type PickState } from './round-robin';
import { fact, input, keys } from './strategy-fixtures.testkit';

const id = (s: string) => s;
const live = ['a', 'b', 'c'];

/** Picks the first of each order `rounds` times, as the learn stage does; returns the picks. */
function run(limit: number, rounds: number, candidates: readonly string[] = live): string[] {
  let state: PickState = EMPTY_PICKS;
  const picked: string[] = [];
  for (let i = 0; i < rounds; i++) {
    const memory = state.combos.get('main');
    const first = orderRoundRobin(candidates, memory, id, state.runs.get('main'), limit)[0] ?? '';
    picked.push(first);
    state = recordPick(state, 'main', first, candidates);
  }
  return picked;
}

describe('round-robin stickiness (stickyRoundRobinLimit)', () => {
  it('ROUTE-1: limit 1 (the default) rotates on every pick, exactly as without the setting', () => {
    expect(run(1, 7)).toEqual(['a', 'b', 'c', 'a', 'b', 'c', 'a']);
    let state = recordPick(EMPTY_PICKS, 'main', 'a', live);
    state = recordPick(state, 'main', 'b', live);
    const memory = state.combos.get('main');
    expect(orderRoundRobin(live, memory, id, state.runs.get('main'), 1)).toEqual(orderRoundRobin(live, memory, id));
  });

  it('ROUTE-1: limit 3 keeps the most recent target for 3 picks in a row, then moves to the least recently picked', () => {
    expect(run(3, 10)).toEqual(['a', 'a', 'a', 'b', 'b', 'b', 'c', 'c', 'c', 'a']);
  });

  it('ROUTE-1: the failover order behind a sticky target is least recently picked first', () => {
    let state = recordPick(EMPTY_PICKS, 'main', 'c', live);
    state = recordPick(state, 'main', 'a', live);
    state = recordPick(state, 'main', 'b', live);
    // b has 1 of 2 picks: it stays first; then c (oldest pick), then a.
    expect(orderRoundRobin(live, state.combos.get('main'), id, state.runs.get('main'), 2)).toEqual(['b', 'c', 'a']);
  });

  it('ROUTE-1: a sticky target that is no longer a candidate (cooling, excluded) rotates at once', () => {
    let state = recordPick(EMPTY_PICKS, 'main', 'a', live);
    state = recordPick(state, 'main', 'b', live);
    state = recordPick(state, 'main', 'c', live);
    // c's run (1 of 5) would keep it first, but c is not in this plan: a (picked longest ago) goes first.
    expect(orderRoundRobin(['a', 'b'], state.combos.get('main'), id, state.runs.get('main'), 5)).toEqual(['a', 'b']);
  });

  it('ROUTE-1: a run counts only picks in a row of the same target; another pick starts a new run', () => {
    let state = recordPick(EMPTY_PICKS, 'main', 'a', live);
    state = recordPick(state, 'main', 'a', live);
    expect(state.runs.get('main')).toEqual({ key: 'a', count: 2 });
    state = recordPick(state, 'main', 'b', live);
    expect(state.runs.get('main')).toEqual({ key: 'b', count: 1 });
    // Runs are per combo.
    expect(recordPick(state, 'other', 'a', live).runs.get('main')).toEqual({ key: 'b', count: 1 });
  });

  it('ROUTE-1: the strategy door passes the run and the limit through', () => {
    const state = recordPick(EMPTY_PICKS, 'main', 'b', live);
    const facts = [fact('a', 0), fact('b', 1), fact('c', 2)];
    const memory = state.combos.get('main');
    const runOf = state.runs.get('main');
    expect(keys(orderByStrategy('round-robin', facts, input({ roundRobin: memory, roundRobinRun: runOf })))).toEqual([
      'a',
      'c',
      'b',
    ]);
    expect(
      keys(orderByStrategy('round-robin', facts, input({ roundRobin: memory, roundRobinRun: runOf, stickyLimit: 2 }))),
    ).toEqual(['b', 'a', 'c']);
  });
});
