import { describe, expect, it } from 'vitest';
import { resetBreaker, type BreakerState } from './breaker-state';
import { mergeBreaker } from './merge-breaker';

const open = (openedAt: number): BreakerState => ({
  kind: 'OPEN',
  failureCount: 8,
  lastFailureAt: openedAt,
  reason: 'opened elsewhere',
  openedAt,
  openCycles: 1,
});

describe('merging a provider breaker another instance learnt (issue 24 §4)', () => {
  it('ISSUE-24: an open breaker spreads, the later opening wins, a remote close changes nothing', () => {
    const closed = resetBreaker();
    expect(mergeBreaker(closed, open(5))).toEqual(open(5));
    expect(mergeBreaker(undefined, open(5))).toEqual(open(5));
    const mine = open(9);
    expect(mergeBreaker(mine, open(5))).toBe(mine);
    expect(mergeBreaker(open(1), open(5))).toEqual(open(5));
    expect(mergeBreaker(mine, closed)).toBe(mine);
  });
});
