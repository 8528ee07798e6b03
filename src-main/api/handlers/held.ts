import { fail, ok } from '../../../src-shared/contract/errors';
import type { Handlers } from '../router';
import type { HandlerDeps } from './handler-deps';

/**
 * Issue 24 §2: the held requests, live, and the operator's actions on them. An action on a request
 * that stopped waiting meanwhile is `not_found` (it went on by itself: nothing to undo).
 */
export function heldHandlers(deps: HandlerDeps): Pick<Handlers, 'held.list' | 'held.act'> {
  return {
    'held.list': () => ok(deps.held?.list() ?? []),
    'held.act': ({ id, action }) => {
      const refused = deps.held ? deps.held.act(id, action) : 'not_found';
      if (refused === 'not_found') return fail('not_found', `Request ${id} is not waiting any more.`);
      if (refused === 'not_offered')
        return fail('invalid_input', `Request ${id} cannot take "${action}" where it waits.`);
      return ok({ done: true as const });
    },
  };
}
