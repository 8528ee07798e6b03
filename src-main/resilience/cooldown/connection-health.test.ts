import { describe, expect, it } from 'vitest';
import { effectiveTestStatus, HEALTHY, isSelectable, type ConnectionHealth } from './connection-health';

const UNTIL = 1_700_000_060_000;
const cooling: ConnectionHealth = { ...HEALTHY, testStatus: 'unavailable', rateLimitedUntil: UNTIL, backoffLevel: 1 };

describe('isSelectable', () => {
  it('COOL-13: a healthy connection is selectable', () => {
    expect(isSelectable(HEALTHY, 0)).toEqual({ ok: true });
  });

  it('COOL-11, COOL-13: a cooling connection is skipped until exactly rateLimitedUntil, then selectable with no write', () => {
    expect(isSelectable(cooling, UNTIL - 1)).toEqual({ ok: false, reason: 'cooldown', retryAfterMs: 1 });
    expect(isSelectable(cooling, UNTIL)).toEqual({ ok: true });
    expect(cooling.testStatus).toBe('unavailable');
  });

  it('COOL-7, COOL-13: terminal states are skipped whatever the clock says', () => {
    for (const testStatus of ['banned', 'expired', 'credits_exhausted'] as const) {
      const terminal = { ...HEALTHY, testStatus, rateLimitedUntil: 0 };
      expect(isSelectable(terminal, Number.MAX_SAFE_INTEGER)).toEqual({ ok: false, reason: testStatus });
    }
  });

  it('PROV-9, COOL-11: a panel reads a passed cooldown as active and a running one as unavailable', () => {
    expect(effectiveTestStatus(cooling, UNTIL - 1)).toBe('unavailable');
    expect(effectiveTestStatus(cooling, UNTIL)).toBe('active');
    expect(effectiveTestStatus({ ...HEALTHY, testStatus: 'banned' }, UNTIL)).toBe('banned');
  });
});
