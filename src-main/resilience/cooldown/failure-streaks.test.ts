import { describe, expect, it } from 'vitest';
import { recordConnectionSuccess } from './clear-connection-health';
import type { ConnectionFailure } from './connection-failure';
import { HEALTHY, type ConnectionHealth } from './connection-health';
import { DEFAULT_COOLDOWN_SETTINGS, type CooldownContext } from './cooldown-settings';
import { EXPIRED_RETRY_MAX, REQUEST_REJECTED_BAN_THRESHOLD } from './failure-streaks';
import { recordConnectionFailure } from './record-connection-failure';

const T0 = 1_700_000_000_000;
const OAUTH: CooldownContext = { settings: DEFAULT_COOLDOWN_SETTINGS, profile: 'oauth', disableCooling: false };
const refusal: ConnectionFailure = {
  reason: 'request_rejected',
  retryHintMs: null,
  terminal: null,
  requestRejected: true,
  message: 'Request not allowed',
  status: 403,
};
const expired: ConnectionFailure = {
  reason: 'auth_error',
  retryHintMs: null,
  terminal: 'expired',
  requestRejected: false,
  message: 'invalid token',
  status: 401,
};

describe('request-rejected streak', () => {
  it('COOL-8: refusals 1 and 2 cool for 5 min and 15 min, the third consecutive one bans', () => {
    expect(REQUEST_REJECTED_BAN_THRESHOLD).toBe(3);
    const first = recordConnectionFailure(HEALTHY, refusal, OAUTH, T0);
    expect(first.decision).toMatchObject({ kind: 'cooldown', source: 'request_rejected', cooldownMs: 300_000 });
    expect(first.state).toMatchObject({
      testStatus: 'unavailable',
      rejectedStreak: 1,
      lastErrorType: 'request_rejected',
      errorCode: '403',
    });
    const second = recordConnectionFailure(first.state, refusal, OAUTH, T0 + 300_000);
    expect(second.decision).toMatchObject({ kind: 'cooldown', cooldownMs: 900_000 });
    expect(second.state.rejectedStreak).toBe(2);
    const third = recordConnectionFailure(second.state, refusal, OAUTH, T0 + 1_200_000);
    expect(third.decision).toMatchObject({ kind: 'terminal', status: 'banned' });
    expect(third.state.testStatus).toBe('banned');
  });

  it('COOL-6, COOL-8: a burst of refusals inside the first episode counts once', () => {
    let state: ConnectionHealth = recordConnectionFailure(HEALTHY, refusal, OAUTH, T0).state;
    for (const at of [1_000, 2_000, 3_000]) {
      const out = recordConnectionFailure(state, refusal, OAUTH, T0 + at);
      expect(out.decision.kind).toBe('absorbed');
      state = out.state;
    }
    expect(state.rejectedStreak).toBe(1);
    expect(state.rateLimitedUntil).toBe(T0 + 300_000);
  });

  it('COOL-8, COOL-12: a success between refusals resets the streak', () => {
    const first = recordConnectionFailure(HEALTHY, refusal, OAUTH, T0);
    const healed = recordConnectionSuccess(first.state);
    const again = recordConnectionFailure(healed, refusal, OAUTH, T0 + 400_000);
    expect(again.state.rejectedStreak).toBe(1);
    expect(again.decision).toMatchObject({ cooldownMs: 300_000 });
  });

  it('COOL-8: a refusal more than 24 h after the previous one starts a new streak', () => {
    const first = recordConnectionFailure(HEALTHY, refusal, OAUTH, T0);
    const later = recordConnectionFailure(first.state, refusal, OAUTH, T0 + 86_400_000);
    expect(later.state.rejectedStreak).toBe(1);
  });

  it('COOL-8, COOL-15: with disableCooling the streak still counts (and still bans) but writes no cooldown', () => {
    const ctx = { ...OAUTH, disableCooling: true };
    const first = recordConnectionFailure(HEALTHY, refusal, ctx, T0);
    expect(first.state).toMatchObject({ testStatus: 'active', rateLimitedUntil: null, rejectedStreak: 1 });
    expect(recordConnectionFailure(first.state, refusal, ctx, T0 + 1_000).decision.kind).toBe('absorbed');
    const second = recordConnectionFailure(first.state, refusal, ctx, T0 + 300_000);
    const third = recordConnectionFailure(second.state, refusal, ctx, T0 + 1_200_000);
    expect(third.state.testStatus).toBe('banned');
  });
});

describe('expired-credential retries', () => {
  it('COOL-9: expired only after 3 retries spaced 1, 2 and 4 min', () => {
    expect(EXPIRED_RETRY_MAX).toBe(3);
    let state: ConnectionHealth = HEALTHY;
    let now = T0;
    for (const [retry, wait] of [
      [1, 60_000],
      [2, 120_000],
      [3, 240_000],
    ] as const) {
      const out = recordConnectionFailure(state, expired, OAUTH, now);
      expect(out.decision).toMatchObject({ kind: 'cooldown', source: 'expired_retry', cooldownMs: wait });
      expect(out.state).toMatchObject({ testStatus: 'unavailable', expiredRetries: retry });
      state = out.state;
      now += wait;
    }
    const last = recordConnectionFailure(state, expired, OAUTH, now);
    expect(last.decision).toMatchObject({ kind: 'terminal', status: 'expired' });
  });

  it('COOL-9: signals before the scheduled retry do not use up a retry', () => {
    const first = recordConnectionFailure(HEALTHY, expired, OAUTH, T0);
    const early = recordConnectionFailure(first.state, expired, OAUTH, T0 + 59_999);
    expect(early.decision).toMatchObject({ kind: 'absorbed', retryAfterMs: 1 });
    expect(early.state.expiredRetries).toBe(1);
  });

  it('COOL-9, COOL-12: a success before the last retry forgets the granted retries', () => {
    const first = recordConnectionFailure(HEALTHY, expired, OAUTH, T0);
    const healed = recordConnectionSuccess(first.state);
    expect(healed.expiredRetries).toBe(0);
  });
});
