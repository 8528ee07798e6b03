import { describe, expect, it } from 'vitest';
import { exactKey, keysCovering, lockTarget, quotaFamilyOf, resolveLockoutScope } from './lockout-keys';

describe('lockout scope and keys', () => {
  it('LOCK-2, LOCK-3: 402, 403, 404 and 429 resolve to the quota family', () => {
    expect([402, 403, 404, 429].map((status) => resolveLockoutScope(status))).toEqual(Array(4).fill('quota_family'));
  });

  it('LOCK-4: every other status, and a transport failure, resolves to the exact triple', () => {
    expect([400, 500, 502, 503, 504, 520, null].map((status) => resolveLockoutScope(status))).toEqual(
      Array(7).fill('exact'),
    );
  });

  it('LOCK-5: an explicit scope always wins', () => {
    expect(resolveLockoutScope(429, 'exact')).toBe('exact');
    expect(resolveLockoutScope(502, 'quota_family')).toBe('quota_family');
  });

  it('LOCK-13: keys are provider:connectionId:model, with exact: for exact locks and 404 narrowed to the bare model', () => {
    expect(lockTarget('p', 'c1', 'm', 429)).toEqual({ key: 'p:c1:m', kind: 'quota_family' });
    expect(lockTarget('p', 'c1', 'm', 404)).toEqual({ key: 'p:c1:m', kind: 'model' });
    expect(lockTarget('p', 'c1', ' M-1 ', 502)).toEqual({ key: 'p:c1:exact:m-1', kind: 'exact' });
    expect(lockTarget('p', 'c1', 'm', 404, 'quota_family')).toEqual({ key: 'p:c1:m', kind: 'quota_family' });
    expect(exactKey('p', '', 'M')).toBe('p::exact:m');
  });

  it('LOCK-2: for Leeway’s providers the quota family is the model itself, so a lock never spreads to siblings', () => {
    expect(quotaFamilyOf('anthropic@https://api.anthropic.com', 'claude-opus-4-1')).toBe('claude-opus-4-1');
    expect(keysCovering('p', 'c1', 'm')).toEqual(['p:c1:m', 'p:c1:exact:m']);
  });
});
