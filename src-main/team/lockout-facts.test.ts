import { describe, expect, it } from 'vitest';
import { isModelLocked, NO_LOCKOUTS, type ModelLockoutEntry } from '../resilience/lockout/model-lockouts';
import {
  clearFact,
  connectionOfFact,
  diffLockouts,
  lockoutFact,
  mergeClear,
  mergeLockout,
  readClearFact,
  readLockoutFact,
} from './lockout-facts';

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

describe('team lockout clears', () => {
  it('ISSUE-24 §4, LOCK-7: a clear removes a lock whose last failure is not newer, and keeps a newer one', () => {
    const local = mergeLockout(NO_LOCKOUTS, entry('id-b', 9_000));
    const clear = readClearFact(clearFact(entry('id-a', 9_000), 'work', 1_000).json);
    expect(clear).toEqual({
      provider: 'openai@https://api.example',
      kind: 'quota_family',
      model: 'gpt-x',
      clearedAt: 1_000,
    });
    expect(mergeClear(local, clear!, 'id-b')).toEqual({});
    expect(mergeClear(local, { ...clear!, clearedAt: 999 }, 'id-b')).toBe(local);
    expect(mergeClear(local, clear!, 'id-other')).toBe(local);
  });

  it('ISSUE-24 §4: a clear is not read as a lock, nor a lock as a clear', () => {
    const fact = clearFact(entry('id-a', 9_000), 'work', 1_000);
    expect(readLockoutFact(fact.json, 'id-b')).toBeNull();
    expect(readClearFact(lockoutFact(entry('id-a', 9_000), 'work').json)).toBeNull();
  });

  it('ISSUE-24 §4, LOCK-13: lock and clear of one local key share one fact name, whatever the exact spelling', () => {
    const exact = (model: string): ModelLockoutEntry => ({ ...entry('id-a', 9_000), kind: 'exact', model });
    expect(lockoutFact(exact('GPT-X '), 'work').name).toBe(clearFact(exact('gpt-x'), 'work', 1).name);
    expect(connectionOfFact(lockoutFact(exact('gpt-x'), 'work').name)).toBe('work');
  });

  it('ISSUE-24 §4: the diff names entries set or replaced and entries gone', () => {
    const one = mergeLockout(NO_LOCKOUTS, entry('id-a', 5_000));
    const two = mergeLockout(one, { ...entry('id-a', 6_000), model: 'gpt-y' });
    expect(diffLockouts(one, two)).toEqual({ set: [two[Object.keys(two)[1]!]], gone: [] });
    expect(diffLockouts(two, {})).toEqual({ set: [], gone: Object.values(two) });
    expect(diffLockouts(two, two)).toEqual({ set: [], gone: [] });
  });
});
