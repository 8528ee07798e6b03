import type { Route, SubagentMode } from '../../src-shared/domain/route';
import type { Database } from './open';

/** Model routes (issue 9 §5): one ordered list, read at catalog build and replaced as a whole. */
export interface RoutesRepo {
  /** Every route in its order. */
  list(): Route[];
  /** Makes the stored list exactly `routes`, in one transaction; returns what is stored. */
  replace(routes: readonly Route[]): Route[];
}

interface RouteRow {
  position: number;
  match: string;
  to_target: string;
  /** Issue 23 §3: NULL = share. */
  subagents: SubagentMode | null;
}

/** A stored row as a route; `subagents` only when set, so a plain route reads back as it was written. */
function routeOf(row: RouteRow): Route {
  const route: Route = { match: row.match, to: row.to_target };
  if (row.subagents !== null) route.subagents = row.subagents;
  return route;
}

/** Creates the repository, preparing every statement once. */
export function createRoutesRepo(db: Database): RoutesRepo {
  const selectAll = db.prepare<[], RouteRow>('SELECT * FROM routes ORDER BY position');
  const deleteAll = db.prepare('DELETE FROM routes');
  const insert = db.prepare<[RouteRow]>(
    'INSERT INTO routes (position, match, to_target, subagents) VALUES (@position, @match, @to_target, @subagents)',
  );
  const list = (): Route[] => selectAll.all().map(routeOf);

  const replace = db.transaction((routes: readonly Route[]): Route[] => {
    deleteAll.run();
    routes.forEach((route, position) =>
      insert.run({ position, match: route.match, to_target: route.to, subagents: route.subagents ?? null }),
    );
    return list();
  });

  return { list, replace: (routes) => replace(routes) };
}
