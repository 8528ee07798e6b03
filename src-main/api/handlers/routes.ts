import { fail, ok } from '../../../src-shared/contract/errors';
import { routeListProblems } from '../../../src-shared/domain/route-targets';
import type { Handlers } from '../router';
import type { HandlerDeps } from './handler-deps';
import { routeKnowledge } from './route-knowledge';

type RouteHandlers = Pick<Handlers, 'routes.list' | 'routes.replace'>;

/** Model routes (issue 9 §5): one ordered list, replaced whole so its order is never half-saved. */
export function routeHandlers(deps: HandlerDeps): RouteHandlers {
  return {
    'routes.list': () => ok(deps.routes.list()),
    'routes.replace': ({ routes }) => {
      const issues = routeListProblems(routes, routeKnowledge(deps)).map((p) => ({
        path: `routes.${p.index}.${p.field}`,
        message: p.message,
      }));
      if (issues.length > 0) {
        return fail('invalid_input', issues.map((i) => `${i.path}: ${i.message}`).join('; '), { details: { issues } });
      }
      const saved = deps.routes.replace(routes);
      deps.events.emit('routes.changed', { routes: saved });
      return ok(saved);
    },
  };
}
