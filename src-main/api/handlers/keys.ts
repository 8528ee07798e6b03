import { fail, ok, type Result } from '../../../src-shared/contract/errors';
import { LEASE_SCOPE } from '../../../src-shared/domain/lease';
import type { MethodParsedInput } from '../../../src-shared/contract/methods';
import type { Handlers } from '../router';
import type { HandlerDeps } from './handler-deps';
import { forgetSessionsOf } from './session-state';

type KeyHandlers = Pick<Handlers, 'keys.list' | 'keys.create' | 'keys.revoke' | 'keys.rename'>;

/** Allowed connections must exist; a lease key needs an explicit list (LEASE-3). */
function checkAccess(deps: HandlerDeps, input: MethodParsedInput<'keys.create'>): Result<null> {
  const issues = input.allowedConnections
    .map((name, i) => ({ name, i }))
    .filter(({ name }) => !deps.connections.getByName(name))
    .map(({ name, i }) => ({ path: `allowedConnections.${i}`, message: `unknown connection "${name}"` }));
  if (input.scopes.includes(LEASE_SCOPE) && input.allowedConnections.length === 0) {
    issues.push({ path: 'allowedConnections', message: `is required for a key with the "${LEASE_SCOPE}" scope` });
  }
  if (issues.length === 0) return ok(null);
  return fail('invalid_input', issues.map((i) => `${i.path}: ${i.message}`).join('; '), { details: { issues } });
}

/** Local API keys: the plain key appears once, in the answer to keys.create. */
export function keyHandlers(deps: HandlerDeps): KeyHandlers {
  const changed = () => deps.events.emit('keys.changed', { keys: deps.keys.list() });
  return {
    'keys.list': () => ok(deps.keys.list()),
    'keys.create': (input) => {
      const checked = checkAccess(deps, input);
      if (!checked.ok) return checked;
      const created = deps.keys.create(input, deps.now());
      if (created.ok) changed();
      return created;
    },
    // Allocations, pins, leases and counters hold the id; activity rows keep the name they were logged under.
    'keys.rename': ({ id, name }) => {
      const renamed = deps.keys.rename(id, name);
      if (!renamed.ok) {
        return renamed.error.code === 'conflict'
          ? fail('conflict', renamed.error.message, {
              details: { issues: [{ path: 'name', message: 'is already taken' }] },
            })
          : fail('not_found', `No key with id "${id}"`);
      }
      changed();
      return renamed;
    },
    'keys.revoke': ({ id }) => {
      const now = deps.now();
      const revoked = deps.keys.revoke(id, now);
      if (!revoked) return fail('not_found', `No active key with id "${id}"`);
      // Refused at once anyway (the key no longer verifies); this frees the connections it leased.
      const forgot = forgetSessionsOf(deps, { keyId: id }, now);
      changed();
      return forgot.ok ? ok({ revoked }) : forgot;
    },
  };
}
