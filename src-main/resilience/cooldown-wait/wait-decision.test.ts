import { describe, expect, it } from 'vitest';
import type { ComboCooldownWaitSettings } from '../../../src-shared/domain/resilience-combo-wait';
import { comboCooldownWaitSchema } from '../../../src-shared/domain/resilience-combo-wait';
import { decideCooldownWait, WAIT_MARGIN_MS, type WaitCandidate } from './wait-decision';

const NOW = 1_000_000;
const ON: ComboCooldownWaitSettings = { enabled: true, maxWaitMs: 5_000, maxAttempts: 2, budgetMs: 8_000 };
const FRESH = { waits: 0, heldMs: 0 };

function cooling(
  cause: string | null,
  inMs: number | null,
  reason: WaitCandidate['reason'] = 'unavailable',
): WaitCandidate {
  return { connection: 'a', model: 'm', reason, cause, until: inMs === null ? null : NOW + inMs };
}

describe('decideCooldownWait', () => {
  it('CONC-8 issue 21 §11: the defaults are on, 90 s per wait, 5 waits, 300 s in all (a per-minute limit is covered)', () => {
    expect(comboCooldownWaitSchema.parse({})).toEqual({
      enabled: true,
      maxWaitMs: 90_000,
      maxAttempts: 5,
      budgetMs: 300_000,
    });
  });

  it('CONC-7: a short rate-limit cooldown is waited for, until its end plus the margin', () => {
    expect(decideCooldownWait([cooling('rate_limit_exceeded', 2_000)], FRESH, ON, NOW)).toEqual({
      kind: 'wait',
      ms: 2_000 + WAIT_MARGIN_MS,
      until: NOW + 2_000 + WAIT_MARGIN_MS,
      connection: 'a',
    });
  });

  it.each([
    ['rate_limit_exceeded', 'unavailable'],
    ['model_capacity', 'model_lockout'],
    ['server_error', 'model_lockout'],
    [null, 'circuit_open'],
    [null, 'provider_cooldown'],
  ] as const)('CONC-7: cause %s behind %s is transient and waited for', (cause, reason) => {
    expect(decideCooldownWait([cooling(cause, 1_000, reason)], FRESH, ON, NOW).kind).toBe('wait');
  });

  it.each([
    ['quota_exhausted', 'unavailable'],
    ['quota_exhausted', 'model_lockout'],
    ['auth_error', 'unavailable'],
    ['token_expired', 'unavailable'],
    ['not_found', 'model_lockout'],
    ['model_unavailable', 'model_lockout'],
    [null, 'unavailable'],
    [null, 'model_lockout'],
  ] as const)('CONC-9: cause %s behind %s is never waited for, however short', (cause, reason) => {
    expect(decideCooldownWait([cooling(cause, 1_000, reason)], FRESH, ON, NOW)).toEqual({
      kind: 'give-up',
      why: 'not_transient',
    });
  });

  it.each(['banned', 'expired', 'credits_exhausted', 'needs_reauth', 'leased', 'quota', 'busy', 'disabled'] as const)(
    'CONC-9: a %s exclusion is never waited for',
    (reason) => {
      expect(decideCooldownWait([cooling('rate_limit_exceeded', 1_000, reason)], FRESH, ON, NOW).kind).toBe('give-up');
    },
  );

  it('CONC-7: a 2-model combo waits for whichever target is back first', () => {
    const later = { ...cooling('rate_limit_exceeded', 4_000), connection: 'b' };
    const sooner = { ...cooling('rate_limit_exceeded', 1_500), connection: 'c' };
    const decision = decideCooldownWait([later, sooner], FRESH, ON, NOW);
    expect(decision).toMatchObject({ kind: 'wait', connection: 'c', ms: 1_500 + WAIT_MARGIN_MS });
  });

  it('CONC-7 issue 21 §13: targets cooled by one burst are waited for together, within the bounds', () => {
    const first = { ...cooling('rate_limit_exceeded', 1_000), connection: 'a' };
    const next = { ...cooling('rate_limit_exceeded', 1_040), connection: 'b' };
    const far = { ...cooling('rate_limit_exceeded', 2_100), connection: 'c' };
    expect(decideCooldownWait([next, far, first], FRESH, ON, NOW)).toMatchObject({
      kind: 'wait',
      connection: 'a',
      ms: 1_040 + WAIT_MARGIN_MS,
    });
    // Never past maxWaitMs: a partner due after it is left for the next pass.
    const edge = { ...cooling('rate_limit_exceeded', 4_900), connection: 'a' };
    const beyond = { ...cooling('rate_limit_exceeded', 5_300), connection: 'b' };
    expect(decideCooldownWait([edge, beyond], FRESH, ON, NOW)).toMatchObject({ ms: 4_900 + WAIT_MARGIN_MS });
  });

  it('CONC-9: a target locked until midnight does not stop the wait for a short one beside it', () => {
    const exhausted = { ...cooling('quota_exhausted', 600), connection: 'q' };
    const limited = { ...cooling('rate_limit_exceeded', 2_000), connection: 'r' };
    expect(decideCooldownWait([exhausted, limited], FRESH, ON, NOW)).toMatchObject({ kind: 'wait', connection: 'r' });
  });

  it('CONC-8: a wait above maxWaitMs gives up; exactly at it waits', () => {
    expect(decideCooldownWait([cooling('rate_limit_exceeded', 5_001)], FRESH, ON, NOW)).toEqual({
      kind: 'give-up',
      why: 'too_long',
    });
    expect(decideCooldownWait([cooling('rate_limit_exceeded', 5_000)], FRESH, ON, NOW).kind).toBe('wait');
  });

  it('CONC-8: a wait above the budget left gives up; exactly the budget left waits', () => {
    const spent = { waits: 1, heldMs: 6_000 };
    expect(decideCooldownWait([cooling('rate_limit_exceeded', 2_001)], spent, ON, NOW)).toEqual({
      kind: 'give-up',
      why: 'budget',
    });
    expect(decideCooldownWait([cooling('rate_limit_exceeded', 2_000)], spent, ON, NOW).kind).toBe('wait');
  });

  it('CONC-8: the last allowed attempt waits; past maxAttempts gives up', () => {
    expect(decideCooldownWait([cooling('rate_limit_exceeded', 100)], { waits: 1, heldMs: 0 }, ON, NOW).kind).toBe(
      'wait',
    );
    expect(decideCooldownWait([cooling('rate_limit_exceeded', 100)], { waits: 2, heldMs: 0 }, ON, NOW)).toEqual({
      kind: 'give-up',
      why: 'max_attempts',
    });
  });

  it('CONC-8: disabled never waits', () => {
    expect(decideCooldownWait([cooling('rate_limit_exceeded', 100)], FRESH, { ...ON, enabled: false }, NOW)).toEqual({
      kind: 'give-up',
      why: 'disabled',
    });
  });

  it('CONC-7: an end already passed waits only the margin; an end that never comes gives up', () => {
    expect(decideCooldownWait([cooling('rate_limit_exceeded', -500)], FRESH, ON, NOW)).toMatchObject({
      kind: 'wait',
      ms: WAIT_MARGIN_MS,
    });
    expect(decideCooldownWait([cooling('rate_limit_exceeded', null)], FRESH, ON, NOW).kind).toBe('give-up');
    const garbage = { ...cooling('rate_limit_exceeded', 0), until: Number.NaN };
    expect(decideCooldownWait([garbage], FRESH, ON, NOW).kind).toBe('give-up');
    expect(decideCooldownWait([], FRESH, ON, NOW).kind).toBe('give-up');
  });
});
