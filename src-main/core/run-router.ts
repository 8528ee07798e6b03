import { fail } from '../../src-shared/contract/errors';
import { createHandlers } from '../api/handlers/create-handlers';
import { createRouter, type Router } from '../api/router';
import { handlerDeps, type HandlerRest } from './handler-deps';
import type { Services } from './start-services';
import { storageRefusal } from './storage';

/**
 * The contract router over the running services, shared by both doors (IPC and HTTP), so a lost
 * data directory is refused the same on each. A write the disk refused is a typed refusal (issue 21
 * §16); anything else thrown is a bug, logged, and the moment to look whether the folder is gone.
 */
export function createRunRouter(services: Services, rest: HandlerRest & { log(line: string): void }): Router {
  const { loss } = services;
  const inner = createRouter(
    createHandlers(handlerDeps(services, rest)),
    (method, error) =>
      storageRefusal(error, services.storage.health) ?? rest.log(`Leeway: internal error in ${method}`),
  );
  return {
    async call(method, input) {
      const lost = loss.lost();
      if (lost !== null) return fail('storage_unavailable', lost.message);
      const result = await inner.call(method, input);
      // A handler that threw may have failed to write: look whether the data directory is still there.
      const lostNow = !result.ok && result.error.code === 'internal_error' ? loss.check() : null;
      return lostNow === null ? result : fail('storage_unavailable', loss.lost()?.message ?? lostNow);
    },
  };
}
