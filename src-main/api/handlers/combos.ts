import { fail, ok } from '../../../src-shared/contract/errors';
import type { Handlers } from '../router';
import type { HandlerDeps } from './handler-deps';
import { routesUsing } from './route-knowledge';

type ComboHandlers = Pick<Handlers, 'combos.list' | 'combos.upsert' | 'combos.remove'>;

/** Combos: ordered failover lists over existing connections. */
export function comboHandlers(deps: HandlerDeps): ComboHandlers {
  const changed = () => {
    deps.reloadCatalog();
    deps.events.emit('combos.changed', { combos: deps.combos.list() });
  };
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
