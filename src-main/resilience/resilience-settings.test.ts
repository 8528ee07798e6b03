import { describe, expect, it } from 'vitest';
import { deepMerge, resolveResilienceSettings } from './resilience-settings';

describe('resilience settings merge', () => {
  it('ISSUE-8: a __proto__ or constructor key in a patch stays a plain field and never reaches a prototype', () => {
    const patch = JSON.parse('{"cooldown":{"__proto__":{"polluted":true},"constructor":{"x":1}}}') as Record<
      string,
      unknown
    >;
    const merged = deepMerge({ cooldown: {} }, patch) as { cooldown: Record<string, unknown> };
    expect(Object.getPrototypeOf(merged.cooldown)).toBe(Object.prototype);
    expect(Object.keys(merged.cooldown)).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // Validation then sees ordinary unknown keys and leaves them out of the settings in force.
    const resolved = resolveResilienceSettings(merged, {});
    expect(resolved.ok).toBe(true);
    if (resolved.ok) expect(Object.keys(resolved.value.cooldown)).not.toContain('__proto__');
  });
});
