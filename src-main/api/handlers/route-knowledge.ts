import type { RouteKnowledge } from '../../../src-shared/domain/route-targets';
import type { HandlerDeps } from './handler-deps';

/** What a route's `to` may name right now: stored combos, connections and the models they list. */
export function routeKnowledge(deps: Pick<HandlerDeps, 'connections' | 'combos'>): RouteKnowledge {
  const connections = deps.connections.list();
  const models = new Set<string>();
  for (const c of connections) {
    for (const m of c.models) models.add(m);
    for (const alias of Object.keys(c.modelAliases)) models.add(alias);
  }
  return {
    combos: new Set(deps.combos.list().map((c) => c.name)),
    connections: new Set(connections.map((c) => c.name)),
    models,
  };
}

/** Indexes of routes whose `to` names the combo or goes through the connection (`connection/model`). */
export function routesUsing(deps: Pick<HandlerDeps, 'routes'>, name: string): number[] {
  return deps.routes
    .list()
    .flatMap((route, index) => (route.to === name || route.to.startsWith(`${name}/`) ? [index] : []));
}
