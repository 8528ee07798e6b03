import { describe, expect, it } from 'vitest';
import { HEALTHY, type ConnectionHealth } from './connection-health';
import { mergeHealth } from './merge-health';

const cooling = (until: number, error = '429'): ConnectionHealth => ({
  ...HEALTHY,
  testStatus: 'unavailable',
  rateLimitedUntil: until,
  errorCode: error,
  backoffLevel: 1,
});

describe('merging a connection health another instance learnt (issue 24 §4)', () => {
  it('ISSUE-24: the later-expiring cooldown wins and the other side is left as it was', () => {
    expect(mergeHealth(cooling(1_000), cooling(5_000, '503'))).toMatchObject({
      rateLimitedUntil: 5_000,
      errorCode: '503',
    });
    const local = cooling(9_000);
    expect(mergeHealth(local, cooling(5_000))).toBe(local);
    expect(mergeHealth(HEALTHY, cooling(5_000)).testStatus).toBe('unavailable');
  });

  it('ISSUE-24: a terminal state spreads, and a terminal state here is not undone by a remote cooldown', () => {
    const banned: ConnectionHealth = { ...HEALTHY, testStatus: 'banned' };
    expect(mergeHealth(cooling(5_000), banned)).toBe(banned);
    expect(mergeHealth(banned, cooling(5_000))).toBe(banned);
  });

  it('ISSUE-24: streak counters are not added up across instances', () => {
    const local: ConnectionHealth = { ...cooling(1_000), rejectedStreak: 2 };
    expect(mergeHealth(local, { ...cooling(2_000), rejectedStreak: 2 }).rejectedStreak).toBe(2);
  });
});
