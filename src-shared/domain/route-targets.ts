import type { Route } from './route';

/** The names a route's `to` may use, gathered from the catalog, the database or a config file. */
export interface RouteKnowledge {
  combos: ReadonlySet<string>;
  connections: ReadonlySet<string>;
  /** Models and aliases some connection lists. */
  models: ReadonlySet<string>;
}

/** A problem with one route, by its index; `field` says which input to mark. */
export interface RouteProblem {
  index: number;
  field: 'match' | 'to';
  message: string;
}

/** `*`, `**` …: matches every model, so nothing after it ever decides. */
const isCatchAll = (glob: string): boolean => /^\*+$/.test(glob);

/**
 * True when `to` resolves the way a client's model would (routing/resolve-targets): a combo, a model
 * some connection lists, `connection/model` or `combo/model`. A bare connection name resolves to
 * nothing, so it is not accepted.
 */
export function routeTargetKnown(to: string, known: RouteKnowledge): boolean {
  if (known.combos.has(to) || known.models.has(to)) return true;
  const slash = to.indexOf('/');
  if (slash <= 0 || slash === to.length - 1) return false;
  const prefix = to.slice(0, slash);
  return known.connections.has(prefix) || known.combos.has(prefix);
}

/**
 * Every problem of an ordered route list: a `to` naming nothing known, and a route no request can
 * reach (after a catch-all, or repeating an earlier glob). Unreachable routes are errors, not
 * warnings: they are always a mistake in the order, and silently doing nothing would hide it.
 */
export function routeListProblems(
  routes: readonly Route[],
  known: RouteKnowledge,
  /** The number a person sees for route `i` (a config file counts entries it could not read too). */
  numberOf: (index: number) => number = (index) => index + 1,
): RouteProblem[] {
  const problems: RouteProblem[] = [];
  const seen = new Map<string, number>();
  let catchAll = -1;
  routes.forEach((route, index) => {
    const glob = route.match.toLowerCase();
    const earlier = seen.get(glob);
    if (catchAll >= 0) {
      problems.push({
        index,
        field: 'match',
        message: `is unreachable: route ${numberOf(catchAll)} ("${routes[catchAll]?.match ?? '*'}") matches every model first`,
      });
    } else if (earlier !== undefined) {
      problems.push({
        index,
        field: 'match',
        message: `is unreachable: route ${numberOf(earlier)} has the same match`,
      });
    }
    if (!seen.has(glob)) seen.set(glob, index);
    if (catchAll < 0 && isCatchAll(route.match)) catchAll = index;
    if (!routeTargetKnown(route.to, known)) {
      problems.push({
        index,
        field: 'to',
        message: `"${route.to}" is not a combo, a connection/model or a model a connection lists`,
      });
    }
  });
  return problems;
}
