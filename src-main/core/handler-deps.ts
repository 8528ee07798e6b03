import type { HandlerDeps } from '../api/handlers/handler-deps';
import type { Storage } from '../db/storage';
import type { ResilienceRuntime } from '../resilience/resilience-runtime';

type StorageDeps = Pick<
  HandlerDeps,
  | 'db'
  | 'connections'
  | 'keys'
  | 'combos'
  | 'settings'
  | 'requestLog'
  | 'affinity'
  | 'leases'
  | 'routes'
  | 'quotaPools'
  | 'resilience'
  | 'resilienceSettings'
>;

/**
 * The handlers' dependencies; storage and the resilience runtime are read at call time: the router exists
 * before start() opens them, and a call before then (or after stop) throws inside the router.
 * `rest.quota` is the running quota engine's admin face; the caller makes it safe to hold before start().
 */
export function handlerDeps(
  storage: () => Storage,
  resilience: () => ResilienceRuntime,
  rest: Omit<HandlerDeps, keyof StorageDeps>,
): HandlerDeps {
  // Never spread the getters below: spreading would read them now, before storage exists.
  return {
    ...rest,
    get db() {
      return storage().db;
    },
    get connections() {
      return storage().connections;
    },
    get keys() {
      return storage().keys;
    },
    get combos() {
      return storage().combos;
    },
    get settings() {
      return storage().settings;
    },
    get requestLog() {
      return storage().requestLog;
    },
    get affinity() {
      return storage().affinity;
    },
    get leases() {
      return storage().leases;
    },
    get routes() {
      return storage().routes;
    },
    get quotaPools() {
      return storage().quotaPools;
    },
    get resilience() {
      return resilience().control;
    },
    get resilienceSettings() {
      return resilience().settings;
    },
  };
}
