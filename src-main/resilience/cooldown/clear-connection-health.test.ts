import { describe, expect, it } from 'vitest';
import { clearCooldown, recordConnectionSuccess, resetConnection } from './clear-connection-health';
import { HEALTHY, isSelectable, type ConnectionHealth } from './connection-health';

const T0 = 1_700_000_000_000;
const troubled: ConnectionHealth = {
  testStatus: 'unavailable',
  rateLimitedUntil: T0 + 60_000,
  lastError: 'Too many requests',
  lastErrorType: 'rate_limit_exceeded',
  errorCode: '429',
  lastFailureAt: T0,
  backoffLevel: 4,
  rejectedStreak: 2,
  lastRejectedAt: T0 - 1_000,
  expiredRetries: 1,
  lastExpiredAt: T0 - 2_000,
};

describe('clearing connection health', () => {
  it('COOL-12: a success clears every error field, the backoff level and both streaks', () => {
    expect(recordConnectionSuccess(troubled)).toEqual(HEALTHY);
  });

  it('COOL-12: a success on a clean connection returns the same object so nothing is written', () => {
    expect(recordConnectionSuccess(HEALTHY)).toBe(HEALTHY);
  });

  it('COOL-10: a success does not lift a terminal state', () => {
    const banned: ConnectionHealth = { ...troubled, testStatus: 'banned', rateLimitedUntil: null };
    expect(recordConnectionSuccess(banned)).toBe(banned);
  });

  it('COOL-10: clearCooldown lifts a transient cooldown and keeps the last error visible', () => {
    const cleared = clearCooldown(troubled);
    expect(cleared).toMatchObject({
      testStatus: 'active',
      rateLimitedUntil: null,
      backoffLevel: 0,
      rejectedStreak: 0,
      expiredRetries: 0,
      lastError: 'Too many requests',
      errorCode: '429',
    });
    expect(isSelectable(cleared, T0)).toEqual({ ok: true });
    expect(clearCooldown(cleared)).toBe(cleared);
  });

  it('COOL-10: clearCooldown never clears a terminal state', () => {
    const expired: ConnectionHealth = { ...troubled, testStatus: 'expired', rateLimitedUntil: null };
    expect(clearCooldown(expired)).toBe(expired);
  });

  it('COOL-10: resetConnection clears everything, terminal states included', () => {
    expect(resetConnection({ ...troubled, testStatus: 'banned' })).toEqual(HEALTHY);
  });
});
