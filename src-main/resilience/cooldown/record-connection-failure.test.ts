import { describe, expect, it } from 'vitest';
import type { ConnectionFailure } from './connection-failure';
import { HEALTHY, isSelectable, type ConnectionHealth, type TerminalStatus } from './connection-health';
import { DEFAULT_COOLDOWN_SETTINGS, type CooldownContext } from './cooldown-settings';
import { recordConnectionFailure } from './record-connection-failure';

const T0 = 1_700_000_000_000;
const APIKEY: CooldownContext = { settings: DEFAULT_COOLDOWN_SETTINGS, profile: 'apikey', disableCooling: false };
const OPTED_OUT: CooldownContext = { ...APIKEY, disableCooling: true };

function failure(over: Partial<ConnectionFailure> = {}): ConnectionFailure {
  return {
    reason: 'server_error',
    retryHintMs: null,
    terminal: null,
    requestRejected: false,
    message: 'Bad gateway',
    status: 502,
    ...over,
  };
}

const cooling = (level: number): ConnectionHealth => ({
  ...HEALTHY,
  testStatus: 'unavailable',
  backoffLevel: level,
  rateLimitedUntil: T0 - 1,
  lastFailureAt: T0 - 1_000,
});

describe('recordConnectionFailure', () => {
  it('COOL-6: N concurrent failures raise backoffLevel by exactly 1 and set one cooldown', () => {
    let state = cooling(2);
    const kinds: string[] = [];
    for (let i = 0; i < 8; i++) {
      const out = recordConnectionFailure(state, failure(), APIKEY, T0 + i * 100);
      kinds.push(out.decision.kind);
      state = out.state;
    }
    expect(state.backoffLevel).toBe(3);
    expect(state.rateLimitedUntil).toBe(T0 + 12_000);
    expect(kinds).toEqual(['cooldown', ...Array<string>(7).fill('absorbed')]);
  });

  it('COOL-6: an absorbed failure returns the very same state so nothing is written', () => {
    const first = recordConnectionFailure(HEALTHY, failure(), APIKEY, T0);
    const second = recordConnectionFailure(first.state, failure({ message: 'other' }), APIKEY, T0 + 10);
    expect(second.state).toBe(first.state);
    expect(second.decision).toMatchObject({ kind: 'absorbed', retryAfterMs: 2_990 });
  });

  it('COOL-4, COOL-6: a concurrent upstream hint that outlasts the running cooldown extends it without a level step', () => {
    const first = recordConnectionFailure(HEALTHY, failure({ status: 429 }), APIKEY, T0);
    const hinted = failure({ status: 429, retryHintMs: 60_000 });
    const second = recordConnectionFailure(first.state, hinted, APIKEY, T0 + 5);
    expect(second.state.rateLimitedUntil).toBe(T0 + 60_005);
    expect(second.state.backoffLevel).toBe(1);
    const third = recordConnectionFailure(second.state, { ...hinted, retryHintMs: 30_000 }, APIKEY, T0 + 6);
    expect(third.decision.kind).toBe('absorbed');
  });

  it('COOL-2: a counted failure records lastError, lastErrorType, errorCode and lastFailureAt', () => {
    const out = recordConnectionFailure(HEALTHY, failure({ message: 'x'.repeat(1_000) }), APIKEY, T0);
    expect(out.state).toMatchObject({
      testStatus: 'unavailable',
      lastErrorType: 'server_error',
      errorCode: '502',
      lastFailureAt: T0,
      rateLimitedUntil: T0 + 3_000,
      backoffLevel: 1,
    });
    expect(out.state.lastError).toHaveLength(300);
  });

  it.each<TerminalStatus>(['banned', 'credits_exhausted', 'expired'])(
    'COOL-7, COOL-10: a transient failure after %s leaves the terminal state untouched',
    (status) => {
      const terminal: ConnectionHealth = { ...HEALTHY, testStatus: status, lastError: 'why' };
      const out = recordConnectionFailure(terminal, failure({ status: 429, retryHintMs: 5_000 }), APIKEY, T0);
      expect(out.state).toBe(terminal);
      expect(out.decision).toMatchObject({ kind: 'already_terminal', status });
    },
  );

  it('COOL-7, COOL-8: ban detection bans at once, even while the connection is cooling', () => {
    const first = recordConnectionFailure(HEALTHY, failure(), APIKEY, T0);
    const out = recordConnectionFailure(
      first.state,
      failure({ terminal: 'banned', status: 403, message: 'account has been deactivated' }),
      APIKEY,
      T0 + 1,
    );
    expect(out.decision).toMatchObject({ kind: 'terminal', status: 'banned' });
    expect(out.state).toMatchObject({ testStatus: 'banned', rateLimitedUntil: null, errorCode: '403' });
    expect(isSelectable(out.state, T0 + 10 * 86_400_000)).toEqual({ ok: false, reason: 'banned' });
  });

  it('COOL-7: an empty wallet is credits_exhausted at once', () => {
    const out = recordConnectionFailure(HEALTHY, failure({ terminal: 'credits_exhausted', status: 402 }), APIKEY, T0);
    expect(out.state.testStatus).toBe('credits_exhausted');
  });

  it('COOL-15: disableCooling records diagnostics but writes no cooldown and no backoff step', () => {
    const out = recordConnectionFailure(HEALTHY, failure({ status: 429 }), OPTED_OUT, T0);
    expect(out.decision.kind).toBe('not_cooled');
    expect(out.state).toMatchObject({
      testStatus: 'active',
      rateLimitedUntil: null,
      backoffLevel: 0,
      errorCode: '429',
      lastFailureAt: T0,
    });
    expect(isSelectable(out.state, T0)).toEqual({ ok: true });
  });

  it('COOL-15: disableCooling still applies terminal states', () => {
    const out = recordConnectionFailure(HEALTHY, failure({ terminal: 'banned' }), OPTED_OUT, T0);
    expect(out.state.testStatus).toBe('banned');
  });
});
