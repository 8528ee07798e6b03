import { fail, ok } from '../../../src-shared/contract/errors';
import { pinKeyOf } from '../../routing/affinity/pin';
import type { Handlers } from '../router';
import type { HandlerDeps } from './handler-deps';
import { endLeases } from './session-state';
import { emitSessionsChanged, leaseViews, pinViews } from './session-views';

type SessionHandlers = Pick<Handlers, 'sessions.list' | 'sessions.clear' | 'leases.list' | 'leases.clear'>;

/** Session pins (AFF) and exclusive leases (LEASE) as the dashboard sees and clears them. */
export function sessionHandlers(deps: HandlerDeps): SessionHandlers {
  const connectionId = (name: string): string | null => deps.connections.getByName(name)?.id ?? null;
  return {
    'sessions.list': () => ok(pinViews(deps, deps.now())),
    'sessions.clear': (input) => {
      let cleared: number;
      if (input.target === 'all') cleared = deps.affinity.clear('all');
      else if (input.target === 'connection') {
        const id = connectionId(input.connection);
        if (!id) return fail('not_found', `No connection named "${input.connection}"`);
        cleared = deps.affinity.clear({ connectionId: id });
      } else {
        const key = deps.keys.list().find((k) => k.name === input.keyName);
        if (!key) return fail('not_found', `No local key named "${input.keyName}"`);
        // A subagent's own pin is stored under `session/agent` (issue 23 §3).
        const session = input.agent === undefined ? input.session : `${input.session}/${input.agent}`;
        cleared = deps.affinity.clear({ key: pinKeyOf({ keyId: key.id, session, target: input.scope }) });
      }
      if (cleared > 0) emitSessionsChanged(deps, deps.now());
      return ok({ cleared });
    },
    'leases.list': () => ok(leaseViews(deps, deps.now())),
    'leases.clear': (input) => {
      const now = deps.now();
      let match: 'all' | { connectionId: string } = 'all';
      if (input.target === 'connection') {
        const id = connectionId(input.connection);
        if (!id) return fail('not_found', `No connection named "${input.connection}"`);
        match = { connectionId: id };
      }
      const ended = endLeases(deps, match, 'cleared', now);
      if (!ended.ok) return ended;
      if (ended.value > 0) emitSessionsChanged(deps, now);
      return ok({ cleared: ended.value });
    },
  };
}
