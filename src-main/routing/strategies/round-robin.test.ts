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
