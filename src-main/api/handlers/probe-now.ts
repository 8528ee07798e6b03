import { fail, ok } from '../../../src-shared/contract/errors';
import { liftFor, probeSubject, probeVerdict } from '../../resilience/probe-now';
import type { Handlers } from '../router';
import type { HandlerDeps } from './handler-deps';

type ProbeHandlers = Pick<Handlers, 'cooldowns.probe'>;

/** "Probe now" for one cooling item (issue 13 §8): one models-list request, then lift only on an answer. */
export function probeHandlers(deps: {
  resilience: Pick<HandlerDeps['resilience'], 'snapshot' | 'clear'>;
  connections: Pick<HandlerDeps['connections'], 'getByName'>;
  testConnection: HandlerDeps['testConnection'];
  now: HandlerDeps['now'];
}): ProbeHandlers {
  return {
    'cooldowns.probe': async (target) => {
      const snapshot = deps.resilience.snapshot(deps.now());
      const subject = probeSubject(snapshot, target, (name) => deps.connections.getByName(name)?.enabled === true);
      if (!subject.ok) return fail(subject.code, subject.message);
      const check = await deps.testConnection(subject.connection);
      if (!check) return fail('not_found', `No connection named "${subject.connection}"`);
      const verdict = probeVerdict(check, subject);
      // Lifted once the answer is in; an item that ended meanwhile clears nothing and is gone all the same.
      if (verdict.lift) deps.resilience.clear(liftFor(target, subject), deps.now());
      return ok({ connection: subject.connection, ok: verdict.ok, lifted: verdict.lift, message: verdict.message });
    },
  };
}
