import { fail, ok } from '../../../src-shared/contract/errors';
import type { Handlers } from '../router';
import type { HandlerDeps } from './handler-deps';

type KeyHandlers = Pick<Handlers, 'keys.list' | 'keys.create' | 'keys.revoke'>;

/** Local API keys: the plain key appears once, in the answer to keys.create. */
export function keyHandlers(deps: HandlerDeps): KeyHandlers {
  const changed = () => deps.events.emit('keys.changed', { keys: deps.keys.list() });
  return {
    'keys.list': () => ok(deps.keys.list()),
    'keys.create': (input) => {
      const created = deps.keys.create(input, deps.now());
      if (created.ok) changed();
      return created;
    },
    'keys.revoke': ({ id }) => {
      const revoked = deps.keys.revoke(id, deps.now());
      if (!revoked) return fail('not_found', `No active key with id "${id}"`);
      changed();
      return ok({ revoked });
    },
  };
}
