import { describe, expect, it } from 'vitest';
import type { ConnectionCooldownRow, CooldownSnapshot, ProviderBreakerRow } from '../../src-shared/domain/cooldown';
import { createLeewayLogger } from './logger';
import { entry } from './observability-fixtures.testkit';
import { createStateLines } from './state-lines';

const NOW = 1_000_000;

function row(name: string, extra: Partial<ConnectionCooldownRow> = {}): ConnectionCooldownRow {
  return {
    id: `id-${name}`,
    name,
    provider: 'anthropic@https://api.anthropic.com',
    rateLimitedUntil: null,
    backoffLevel: 0,
    testStatus: 'active',
    lastError: null,
    lastErrorType: null,
    errorCode: null,
    terminal: false,
    retryAfterMs: null,
    ...extra,
  };
}
const breaker = (state: ProviderBreakerRow['state'], extra: Partial<ProviderBreakerRow> = {}): ProviderBreakerRow => ({
  provider: 'anthropic@https://api.anthropic.com',
  kind: 'anthropic',
  origin: 'https://api.anthropic.com',
  profile: 'apikey',
  state,
  failureCount: 0,
  retryAfterMs: null,
  gate: null,
  ...extra,
});
const snap = (extra: Partial<CooldownSnapshot> = {}): CooldownSnapshot => ({
  connections: [row('primary')],
  providers: [breaker('CLOSED')],
  models: [],
  now: NOW,
  ...extra,
});
const cooling = row('primary', {
  rateLimitedUntil: NOW + 30_000,
  retryAfterMs: 30_000,
  backoffLevel: 1,
  lastErrorType: 'rate_limited',
  lastError: 'upstream said sk-secret',
});

function setUp() {
  const lines: string[] = [];
  const { logger } = createLeewayLogger({
    terminal: (l) => lines.push(l.slice(13)),
    redact: (l) => l,
    now: () => NOW,
  });
  const states = createStateLines(logger, () => NOW);
  states.baseline(snap());
  return { states, lines };
}

describe('state-change lines', () => {
  it('ISSUE-13: a cooldown set and a cooldown cleared early are one line each; nothing is said when nothing changed', () => {
    const { states, lines } = setUp();
    states.snapshot(snap());
    expect(lines).toEqual([]);
    states.snapshot(snap({ connections: [cooling] }));
    states.snapshot(snap({ connections: [cooling] }));
    states.snapshot(snap());
    expect(lines).toEqual([
      'WARN cooldown set: primary for 30 s (rate_limited, backoff level 1)',
      'cooldown cleared: primary',
    ]);
    // The stored error text is never quoted: only its type.
    expect(lines.join('\n')).not.toContain('sk-secret');
  });

  it('ISSUE-13: a cooldown that ran out by itself is not reported as cleared', () => {
    const { states, lines } = setUp();
    states.snapshot(snap({ connections: [cooling] }));
    states.snapshot(snap({ connections: [row('primary')], now: NOW + 31_000 }));
    expect(lines).toHaveLength(1);
  });

  it('issue 21 §14: a connection that cools again after its first cooldown ran out gets a second line', () => {
    const { states, lines } = setUp();
    states.snapshot(snap({ connections: [cooling] }));
    // No snapshot comes when the first cooldown runs out; the next one is a new cooldown.
    const again = row('primary', { ...cooling, rateLimitedUntil: NOW + 95_000, retryAfterMs: 60_000, backoffLevel: 2 });
    states.snapshot(snap({ connections: [again], now: NOW + 35_000 }));
    expect(lines).toEqual([
      'WARN cooldown set: primary for 30 s (rate_limited, backoff level 1)',
      'WARN cooldown set: primary for 60 s (rate_limited, backoff level 2)',
    ]);
  });

  it('ISSUE-13: breaker open, half-open and closed, each once', () => {
    const { states, lines } = setUp();
    states.snapshot(snap({ providers: [breaker('OPEN', { failureCount: 5, retryAfterMs: 60_000 })] }));
    states.snapshot(snap({ providers: [breaker('HALF_OPEN')] }));
    states.snapshot(snap({ providers: [breaker('CLOSED')] }));
    expect(lines).toEqual([
      'WARN breaker open: anthropic@https://api.anthropic.com after 5 failures, retry in 60 s',
      'breaker half-open: anthropic@https://api.anthropic.com',
      'breaker closed: anthropic@https://api.anthropic.com',
    ]);
  });

  it('ISSUE-13: a model lockout set and ended; a connection turning terminal and reset', () => {
    const { states, lines } = setUp();
    const lock = {
      key: 'anthropic:id-primary:claude-opus',
      provider: 'anthropic',
      connectionId: 'id-primary',
      connection: 'primary',
      model: 'claude-opus',
      reason: 'model_not_found',
      expiresAt: NOW + 120_000,
      failureCount: 1,
    };
    states.snapshot(snap({ models: [lock] }));
    states.snapshot(snap());
    states.snapshot(snap({ connections: [row('primary', { testStatus: 'needs_reauth', terminal: true })] }));
    states.snapshot(snap());
    expect(lines).toEqual([
      'WARN model lockout: primary · claude-opus for 2 min (model_not_found)',
      'model lockout ended: anthropic:id-primary:claude-opus',
      'ERROR connection primary is needs_reauth: it needs a reset or a new credential',
      'connection primary is active again',
    ]);
  });

  it('ISSUE-13: a quota hold is told once per key, and its end when the key is served again', () => {
    const { states, lines } = setUp();
    const refused = entry({ keyName: 'alice', status: 429, connection: null, errorCode: 'quota_exceeded' });
    states.request(refused);
    states.request(refused);
    states.request(entry({ keyName: 'bob' }));
    states.request(entry({ keyName: 'alice' }));
    expect(lines).toEqual([
      'WARN quota hold: key alice is over its pool share',
      'quota hold lifted: key alice is served again',
    ]);
  });

  it('ISSUE-13: a token refresh names the connection and how long the new token lasts', () => {
    const { states, lines } = setUp();
    states.tokenRefreshed('max-1', NOW + 8 * 3_600_000);
    expect(lines).toEqual(['token refreshed: max-1, valid for 8.0 h']);
  });
});
