import { fail, ok } from '../../../src-shared/contract/errors';
import type { Handlers } from '../router';
import type { HandlerDeps } from './handler-deps';

type ResilienceHandlers = Pick<
  Handlers,
  | 'cooldowns.list'
  | 'cooldowns.clear'
  | 'connections.reset'
  | 'resilience.reset'
  | 'resilience.getSettings'
  | 'resilience.updateSettings'
>;

/** Cooldown panels, clears and resets, and the resilience settings (issue 3 §6). */
export function resilienceHandlers(deps: HandlerDeps): ResilienceHandlers {
  return {
    'cooldowns.list': () => ok(deps.resilience.snapshot(deps.now())),
    'cooldowns.clear': (input) => {
      const cleared = deps.resilience.clear(input, deps.now());
      if (cleared === null) return fail('not_found', `Nothing to clear for ${JSON.stringify(input)}`);
      return ok({ cleared });
    },
    'connections.reset': ({ name }) => {
      const stored = deps.connections.getByName(name) ?? deps.connections.getById(name);
      if (!stored) return fail('not_found', `No connection named "${name}"`);
      deps.resilience.resetConnection(stored.id, deps.now());
      const view = deps.connections.list().find((c) => c.id === stored.id);
      return view ? ok((({ secret: _s, ...rest }) => rest)(view)) : fail('not_found', `No connection named "${name}"`);
    },
    'resilience.reset': () => ok({ resetCount: deps.resilience.resetAll(deps.now()) }),
    'resilience.getSettings': () => ok(deps.resilienceSettings.get()),
    // The router already checked the patch's shape and refused ranges; the merge may still fail (cross-field rules).
    'resilience.updateSettings': (patch) => {
      const result = deps.resilienceSettings.update(patch);
      if (!result.ok) {
        return fail('invalid_input', result.issues.map((i) => `${i.path}: ${i.message}`).join('; '), {
          details: { issues: result.issues },
        });
      }
      deps.events.emit('resilience.settingsChanged', { settings: result.value });
      return ok(result.value);
    },
  };
}
