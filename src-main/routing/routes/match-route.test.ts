import { describe, expect, it } from 'vitest';
import { routesSchema, type Route } from '../../../src-shared/domain/route';
import { globMatches } from './glob';
import { matchRoute, unreachableRoutes } from './match-route';

/** The Claude Code recipe from the issue: background haiku calls to a cheap combo, everything else to main. */
const RECIPE: Route[] = [
  { match: '*haiku*', to: 'cheap' },
  { match: '*', to: 'main' },
];

describe('model routes', () => {
  it('ISSUE9-ROUTES: the first matching route decides: a haiku model goes to the cheap combo, the rest to main', () => {
    expect(matchRoute(RECIPE, 'claude-haiku-4-5-20251001')).toEqual({ kind: 'matched', route: RECIPE[0], index: 0 });
    expect(matchRoute(RECIPE, 'claude-opus-4-8[1m]')).toEqual({ kind: 'matched', route: RECIPE[1], index: 1 });
  });

  it('ISSUE9-ROUTES: order matters: a catch-all placed first takes everything and later routes are unreachable', () => {
    const routes: Route[] = [
      { match: '*', to: 'main' },
      { match: '*haiku*', to: 'cheap' },
      { match: 'gpt-?', to: 'x' },
    ];
    expect(matchRoute(routes, 'claude-haiku-4-5')).toMatchObject({ index: 0 });
    expect(unreachableRoutes(routes)).toEqual([1, 2]);
    expect(unreachableRoutes(RECIPE)).toEqual([]);
  });

  it('ISSUE9-ROUTES: without a catch-all an unmatched model matches nothing, and no routes match nothing', () => {
    expect(matchRoute([{ match: 'claude-*', to: 'main' }], 'gpt-5')).toEqual({ kind: 'none' });
    expect(matchRoute([], 'anything')).toEqual({ kind: 'none' });
  });

  it('ISSUE9-ROUTES: * matches any run including none and slashes; ? matches exactly one character', () => {
    expect(globMatches('claude-*', 'claude-')).toBe(true);
    expect(globMatches('*/gpt-*', 'openrouter/openai/gpt-5')).toBe(true);
    expect(globMatches('gpt-?', 'gpt-5')).toBe(true);
    expect(globMatches('gpt-?', 'gpt-')).toBe(false);
    expect(globMatches('gpt-?', 'gpt-51')).toBe(false);
    expect(globMatches('a*b*c', 'a-b-x-c')).toBe(true);
    expect(globMatches('a*b*c', 'a-c-b')).toBe(false);
    expect(globMatches('*', '')).toBe(true);
  });

  it('ISSUE9-ROUTES: other characters are literal, so brackets and dots in model names need no escaping', () => {
    expect(globMatches('claude-opus-4-8[1m]', 'claude-opus-4-8[1m]')).toBe(true);
    expect(globMatches('claude-opus-4-8[1m]', 'claude-opus-4-81')).toBe(false);
    expect(globMatches('gpt-4.1', 'gpt-4x1')).toBe(false);
  });

  it('ISSUE9-ROUTES: matching ignores ASCII case (Qwen3 and qwen3 are one model to a person) but nothing else', () => {
    expect(globMatches('*qwen3*', 'Qwen3-Coder-480B')).toBe(true);
    expect(globMatches('*HAIKU*', 'claude-haiku-4-5')).toBe(true);
    expect(globMatches('*haiku*', 'claude-sonnet-4-5')).toBe(false);
  });

  it('ISSUE9-ROUTES: a pathological pattern against a long name answers quickly (no exponential backtracking)', () => {
    const started = performance.now();
    expect(globMatches('*a*a*a*a*a*a*a*a*b', 'a'.repeat(5_000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('ISSUE9-ROUTES: the config schema takes match and to, trims them, and refuses empty or spaced globs', () => {
    expect(routesSchema.parse([{ match: ' *haiku* ', to: ' cheap ' }])).toEqual([{ match: '*haiku*', to: 'cheap' }]);
    expect(routesSchema.safeParse([{ match: '', to: 'main' }]).success).toBe(false);
    expect(routesSchema.safeParse([{ match: 'a b', to: 'main' }]).success).toBe(false);
    expect(routesSchema.safeParse([{ match: '*', to: 'main', extra: 1 }]).success).toBe(false);
  });
});
