import { fail, ok } from '../../../src-shared/contract/errors';
import type { Handlers } from '../router';
import { exportActivityCsv } from './activity-export';
import type { HandlerDeps } from './handler-deps';

type Rest = Pick<
  Handlers,
  | 'settings.get'
  | 'settings.update'
  | 'activity.list'
  | 'activity.summary'
  | 'activity.decision'
  | 'activity.exportCsv'
  | 'app.info'
  | 'app.setPaused'
>;

function startOfLocalDay(now: number): number {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** Settings, the activity log and the app's own state. */
export function restHandlers(deps: HandlerDeps): Rest {
  const emitSettings = (settings: ReturnType<HandlerDeps['settings']['get']>) =>
    deps.events.emit('settings.changed', { settings });
  return {
    'settings.get': () => ok(deps.settings.get()),
    'settings.update': (patch) => {
      const before = deps.settings.get().paused;
      const updated = deps.settings.update(patch);
      if (!updated.ok) return updated;
      emitSettings(updated.value);
      if (updated.value.paused !== before) deps.events.emit('app.paused', { paused: updated.value.paused });
      return updated;
    },
    'activity.list': (query) => ok(deps.requestLog.list(query ?? {})),
    'activity.summary': () => {
      const { requests, errors } = deps.requestLog.summarySince(startOfLocalDay(deps.now()));
      return ok({ requestsToday: requests, errorsToday: errors });
    },
    'activity.decision': ({ id }) => {
      const found = deps.requestLog.decision(id);
      return found
        ? ok(found)
        : fail('not_found', `No decision record for request ${id === 'last' ? '(none yet)' : id}`);
    },
    'activity.exportCsv': (filter) => exportActivityCsv(deps.requestLog, filter ?? {}, deps.now()),
    'app.info': () => ok(deps.info()),
    'app.setPaused': ({ paused }) => {
      const updated = deps.settings.update({ paused });
      if (!updated.ok) return updated;
      emitSettings(updated.value);
      deps.events.emit('app.paused', { paused });
      return ok(deps.info());
    },
  };
}
