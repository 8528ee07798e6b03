import { describe, expect, it } from 'vitest';
import { isModelLocked, NO_LOCKOUTS, type ModelLockoutEntry } from '../resilience/lockout/model-lockouts';
import { lockoutFact, mergeLockout, readLockoutFact } from './lockout-facts';

const entry = (connectionId: string, until: number): ModelLockoutEntry => ({
  provider: 'openai@https://api.example',
  connectionId,
  model: 'gpt-x',
  kind: 'quota_family',
  reason: '429',
  lockedAt: 1_000,
  until,
  failureCount: 1,
  lastFailureAt: 1_000,
  lastCooldownMs: until - 1_000,
  hintSource: null,
});

describe('team lockout facts', () => {
  it('ISSUE-24 LOCK-13 a lock travels by connection name and locks the same model under the other id', () => {
    const fact = lockoutFact(entry('id-a', 5_000), 'work');
    expect(fact.name).not.toContain('id-a');
    const remote = readLockoutFact(fact.json, 'id-b');
    expect(remote).not.toBeNull();
    const state = mergeLockout(NO_LOCKOUTS, remote!);
    expect(isModelLocked(state, 'openai@https://api.example', 'id-b', 'gpt-x', 2_000)?.expiresAt).toBe(5_000);
    expect(isModelLocked(state, 'openai@https://api.example', 'id-a', 'gpt-x', 2_000)).toBeNull();
  });

  it('ISSUE-24 the later expiry wins; an earlier remote lock changes nothing', () => {
    const later = mergeLockout(NO_LOCKOUTS, entry('id-b', 9_000));
    expect(mergeLockout(later, entry('id-b', 4_000))).toBe(later);
    const extended = mergeLockout(mergeLockout(NO_LOCKOUTS, entry('id-b', 4_000)), entry('id-b', 9_000));
    expect(isModelLocked(extended, 'openai@https://api.example', 'id-b', 'gpt-x', 5_000)?.expiresAt).toBe(9_000);
  });

  it('ISSUE-24 a fact that is not a lockout is ignored', () => {
    expect(readLockoutFact('{"provider":"p"}', 'id-b')).toBeNull();
    expect(readLockoutFact('not json', 'id-b')).toBeNull();
  });
});
