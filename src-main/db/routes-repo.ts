import type { Route } from '../../src-shared/domain/route';
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
}

/** Creates the repository, preparing every statement once. */
export function createRoutesRepo(db: Database): RoutesRepo {
  const selectAll = db.prepare<[], RouteRow>('SELECT * FROM routes ORDER BY position');
  const deleteAll = db.prepare('DELETE FROM routes');
  const insert = db.prepare<[RouteRow]>(
    'INSERT INTO routes (position, match, to_target) VALUES (@position, @match, @to_target)',
  );
  const list = (): Route[] => selectAll.all().map((row) => ({ match: row.match, to: row.to_target }));

  const replace = db.transaction((routes: readonly Route[]): Route[] => {
    deleteAll.run();
    routes.forEach((route, position) => insert.run({ position, match: route.match, to_target: route.to }));
    return list();
  });

  return { list, replace: (routes) => replace(routes) };
}
