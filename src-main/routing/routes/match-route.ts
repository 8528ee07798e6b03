import type { Route } from '../../../src-shared/domain/route';
import { globMatches, isCatchAll } from './glob';

export type RouteMatch = { kind: 'matched'; route: Route; index: number } | { kind: 'none' };

/**
 * The first route whose glob matches the requested model decides (issue 9 §5). The caller asks only
 * after exact combo and connection names missed, and before the "any connection serves it" fallback.
 */
export function matchRoute(routes: readonly Route[], model: string): RouteMatch {
  for (let index = 0; index < routes.length; index++) {
    const route = routes[index];
    if (route && globMatches(route.match, model)) return { kind: 'matched', route, index };
  }
  return { kind: 'none' };
}

/** Routes that can never decide because an earlier catch-all (`*`) matches first: for config warnings. */
export function unreachableRoutes(routes: readonly Route[]): number[] {
  const catchAll = routes.findIndex((route) => isCatchAll(route.match));
  return catchAll < 0 ? [] : routes.slice(catchAll + 1).map((_, offset) => catchAll + 1 + offset);
}
