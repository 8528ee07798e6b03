import { fail, ok } from '../../../src-shared/contract/errors';
import type { Route } from '../../../src-shared/domain/route';
import type { Handlers } from '../router';
import type { HandlerDeps } from './handler-deps';
import { routesUsing } from './route-knowledge';

type ComboHandlers = Pick<Handlers, 'combos.list' | 'combos.upsert' | 'combos.remove' | 'combos.rename'>;

/**
 * Routes after renaming a combo or connection (issue 13 §8): a `to` that names `from`, or goes
 * through it (`from/model`), names `to` instead. Null when no route changes.
 */
export function renameInRoutes(routes: readonly Route[], from: string, to: string): Route[] | null {
  const renamed = (target: string): string =>
    target === from ? to : target.startsWith(`${from}/`) ? `${to}${target.slice(from.length)}` : target;
  const next = routes.map((route) => ({ ...route, to: renamed(route.to) }));
  return next.some((route, i) => route.to !== routes[i]?.to) ? next : null;
}

/** Writes the renamed routes and tells every window; the catalog follows the routes' change event. */
export function saveRenamedRoutes(deps: Pick<HandlerDeps, 'routes' | 'events'>, from: string, to: string): void {
  const next = renameInRoutes(deps.routes.list(), from, to);
  if (next) deps.events.emit('routes.changed', { routes: deps.routes.replace(next) });
}

/** Combos: ordered failover lists over existing connections. */
export function comboHandlers(deps: HandlerDeps): ComboHandlers {
  const changed = () => deps.events.emit('combos.changed', { combos: deps.combos.list() });
  return {
    'combos.list': () => ok(deps.combos.list()),
    'combos.upsert': (input) => {
      const issues = input.targets
        .map((t, i) => ({ t, i }))
        .filter(({ t }) => !deps.connections.getByName(t.connection))
        .map(({ t, i }) => ({ path: `targets.${i}`, message: `unknown connection "${t.connection}"` }));
      if (issues.length > 0) {
        return fail('invalid_input', issues.map((i) => `${i.path}: ${i.message}`).join('; '), { details: { issues } });
      }
      if (deps.connections.getByName(input.name)) {
        return fail('conflict', `"${input.name}" is already a connection name; a combo needs its own name`);
      }
      const targets = input.targets.map((t) => ({
        connection: t.connection,
        model: t.model,
        ...('weight' in t && t.weight !== undefined ? { weight: t.weight } : {}),
      }));
      const combo = deps.combos.upsert({ name: input.name, targets, strategy: input.strategy }, deps.now());
      changed();
      return ok(combo);
    },
    'combos.rename': ({ from, to }) => {
      const combo = deps.combos.getByName(from);
      if (!combo) return fail('not_found', `No combo named "${from}"`);
      if (to === from) return ok(combo);
      if (deps.combos.getByName(to) || deps.connections.getByName(to)) {
        return fail('conflict', `"${to}" is already the name of a combo or connection`, {
          details: { issues: [{ path: 'to', message: 'is already taken' }] },
        });
      }
      const now = deps.now();
      // One transaction: the combo and the routes that name it change together or not at all.
      const renamed = deps.atomically(() => {
        const saved = deps.combos.rename(combo.id, to, now);
        saveRenamedRoutes(deps, from, to);
        return saved;
      });
      if (!renamed) return fail('not_found', `No combo named "${from}"`);
      changed();
      return ok(renamed);
    },
    'combos.remove': ({ name }) => {
      const routes = routesUsing(deps, name);
      if (routes.length > 0) {
        return fail(
          'conflict',
          `Combo "${name}" is the target of route(s) ${routes.map((i) => i + 1).join(', ')}; change them first`,
        );
      }
      const removed = deps.combos.remove(name);
      if (!removed) return fail('not_found', `No combo named "${name}"`);
      changed();
      return ok({ removed });
    },
  };
}
