import { describe, expect, it } from 'vitest';
import type { ConnectionCooldownRow, CooldownSnapshot, TargetExclusion } from '../../../src-shared/domain/cooldown';
import { waitCandidatesOf } from './wait-causes';

const NOW = 5_000_000;

function connection(name: string, over: Partial<ConnectionCooldownRow> = {}): ConnectionCooldownRow {
  return {
    id: `id-${name}`,
    name,
    provider: 'openai@x',
    rateLimitedUntil: null,
    backoffLevel: 0,
    testStatus: 'active',
    lastError: null,
    lastErrorType: null,
    errorCode: null,
    terminal: false,
    retryAfterMs: null,
    ...over,
  };
}

const snapshot: CooldownSnapshot = {
  now: NOW,
  connections: [
    connection('limited', { lastErrorType: 'rate_limit_exceeded', retryAfterMs: 1_234, testStatus: 'unavailable' }),
    connection('exhausted', { lastErrorType: 'quota_exhausted', retryAfterMs: 900, testStatus: 'unavailable' }),
    connection('locked'),
  ],
  providers: [
    {
      provider: 'openai@x',
      kind: 'openai',
      origin: 'x',
      profile: 'apikey',
      state: 'OPEN',
      failureCount: 5,
      retryAfterMs: 7_000,
      gate: { cooling: true, failuresInWindow: 3, retryAfterMs: 3_000 },
    },
  ],
  models: [
    {
      key: 'k1',
      provider: 'openai@x',
      connectionId: 'id-locked',
      connection: 'locked',
      model: 'other',
      reason: 'quota_exhausted',
      expiresAt: NOW + 90_000,
      failureCount: 1,
    },
    {
      key: 'k2',
      provider: 'openai@x',
      connectionId: 'id-locked',
      connection: 'locked',
      model: 'm',
      reason: 'rate_limit_exceeded',
      expiresAt: NOW + 2_500,
      failureCount: 1,
    },
  ],
};

const ex = (
  connection: string,
  reason: TargetExclusion['reason'],
  retryAfterSeconds: number | null,
): TargetExclusion => ({
  connection,
  model: 'm',
  reason,
  retryAfterSeconds,
});

describe('waitCandidatesOf', () => {
  it('CONC-9: a cooling connection carries its last failure reason and exact end', () => {
    const [limited, exhausted] = waitCandidatesOf(
      [ex('limited', 'unavailable', 2), ex('exhausted', 'unavailable', 1)],
      snapshot,
    );
    expect(limited).toMatchObject({ cause: 'rate_limit_exceeded', until: NOW + 1_234 });
    expect(exhausted).toMatchObject({ cause: 'quota_exhausted', until: NOW + 900 });
  });

  it("CONC-9: a model lockout takes the target model's own lock, with its reason", () => {
    const [locked] = waitCandidatesOf([ex('locked', 'model_lockout', 3)], snapshot);
    expect(locked).toMatchObject({ cause: 'rate_limit_exceeded', until: NOW + 2_500 });
  });

  it("CONC-7: a breaker and a provider gate end when the provider's row says", () => {
    const [open, gate] = waitCandidatesOf(
      [ex('limited', 'circuit_open', 7), ex('limited', 'provider_cooldown', 3)],
      snapshot,
    );
    expect(open).toMatchObject({ cause: null, until: NOW + 7_000 });
    expect(gate).toMatchObject({ cause: null, until: NOW + 3_000 });
  });

  it('CONC-9: an exclusion the snapshot does not explain keeps its announced seconds and no cause', () => {
    const [unknown, leased] = waitCandidatesOf([ex('gone', 'unavailable', 4), ex('gone', 'leased', null)], snapshot);
    expect(unknown).toMatchObject({ cause: null, until: NOW + 4_000 });
    expect(leased).toMatchObject({ reason: 'leased', cause: null, until: null });
  });
});
