import { fail, ok } from '../../../src-shared/contract/errors';
import type { Handlers } from '../router';
import { toView } from '../../db/connections-repo';
import { saveRenamedRoutes } from './combos';
import type { HandlerDeps } from './handler-deps';
import { probeHandlers } from './probe-now';
import { routesUsing } from './route-knowledge';
import { forgetSessionsOf } from './session-state';
import { capabilitiesOf } from '../../kernel/provider-capabilities';

type ConnectionHandlers = Pick<
  Handlers,
  | 'connections.list'
  | 'connections.upsert'
  | 'connections.remove'
  | 'connections.test'
  | 'connections.rename'
  | 'cooldowns.probe'
>;

/** Connections: secrets go in, only hints come out. */
export function connectionHandlers(deps: HandlerDeps): ConnectionHandlers {
  const changed = () => deps.events.emit('connections.changed', { connections: deps.connections.list().map(toView) });
  return {
    'connections.list': () => ok(deps.connections.list().map(toView)),
    'connections.upsert': (draft) => {
      const existing = deps.connections.getByName(draft.name);
      if (!existing && !draft.secret && !capabilitiesOf(draft.kind).secretOptional) {
        return fail('invalid_input', `secret: is required for a new ${draft.kind} connection`, {
          details: { issues: [{ path: 'secret', message: 'is required' }] },
        });
      }
      const keptSecret = !draft.secret ? existing?.secret : undefined;
      if (keptSecret && (keptSecret.type === 'oauth') !== capabilitiesOf(draft.kind).usesOAuth) {
        return fail('invalid_input', `secret: changing the kind to ${draft.kind} needs a new credential`, {
          details: { issues: [{ path: 'secret', message: 'is required when the kind changes' }] },
        });
      }
      const stored = deps.connections.upsert(draft, deps.now());
      // COOL-10: a new credential is the one thing besides an explicit reset that ends a terminal state.
      if (existing && draft.secret && JSON.stringify(draft.secret) !== JSON.stringify(existing.secret)) {
        deps.resilience.resetConnection(stored.id, deps.now());
      }
      changed();
      return ok(toView(stored));
    },
    /**
     * Issue 13 §8: same id, new name. What names the connection follows in one transaction (combo
     * targets, routes, key allowlists); pools, plans, pins, leases, health and discovered models
     * hold the id. Activity rows keep the name they were logged under.
     */
    'connections.rename': ({ from, to }) => {
      const stored = deps.connections.getByName(from);
      if (!stored) return fail('not_found', `No connection named "${from}"`);
      if (to === from) return ok(toView(stored));
      if (deps.connections.getByName(to) || deps.combos.getByName(to)) {
        return fail('conflict', `"${to}" is already the name of a connection or combo`, {
          details: { issues: [{ path: 'to', message: 'is already taken' }] },
        });
      }
      const now = deps.now();
      const result = deps.atomically(() => {
        const renamed = deps.connections.rename(stored.id, to, now);
        const combos = deps.combos.renameConnection(from, to, now);
        const keys = deps.keys.renameAllowedConnection(from, to);
        saveRenamedRoutes(deps, from, to);
        return { renamed, combos, keys };
      });
      if (!result.renamed) return fail('not_found', `No connection named "${from}"`);
      changed();
      if (result.combos > 0) deps.events.emit('combos.changed', { combos: deps.combos.list() });
      if (result.keys > 0) deps.events.emit('keys.changed', { keys: deps.keys.list() });
      return ok(toView(result.renamed));
    },
    ...probeHandlers(deps),
    'connections.test': async ({ name }) => {
      const result = await deps.testConnection(name);
      return result ? ok(result) : fail('not_found', `No connection named "${name}"`);
    },
    'connections.remove': ({ name }) => {
      const used = deps.combos.list().filter((c) => c.targets.some((t) => t.connection === name));
      if (used.length > 0) {
        return fail(
          'conflict',
          `Connection "${name}" is used by combo(s) ${used.map((c) => c.name).join(', ')}; remove it there first`,
        );
      }
      const routes = routesUsing(deps, name);
      if (routes.length > 0)
        return fail(
          'conflict',
          `Connection "${name}" is the target of route(s) ${routes.map((i) => i + 1).join(', ')}; change them first`,
        );
      // Its pins and leases end first, while the row they name still exists (issue 9).
      const stored = deps.connections.getByName(name);
      const forgot = stored ? forgetSessionsOf(deps, { connectionId: stored.id }, deps.now()) : null;
      if (forgot && !forgot.ok) return forgot;
      const removed = deps.connections.remove(name);
      if (!removed) return fail('not_found', `No connection named "${name}"`);
      changed();
      return ok({ removed });
    },
  };
}
