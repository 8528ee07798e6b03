import type { StorageStatus } from '../../../src-shared/domain/storage-status';

/**
 * `GET /health` (issue 21 §16). `ok` and `degraded` answer 200: degraded storage leaves the proxy
 * serving, and a 5xx would make a load balancer, a Kubernetes probe or a supervisor take out or
 * restart a proxy that still works (a restart cannot free a disk). That is the "warn" of the IETF
 * health-check draft (draft-inadarei-api-health-check: pass/warn answer 2xx, fail 4xx-5xx);
 * monitors alert on the body (`status`, `storage.ok`). `unavailable` — the data directory is gone
 * and model calls are refused — answers 503.
 */
export function healthAnswer(storage: StorageStatus, lost: boolean, version: string, paused: boolean) {
  const status = lost ? 'unavailable' : storage.ok ? 'ok' : 'degraded';
  return {
    httpStatus: lost ? 503 : 200,
    body: JSON.stringify({ status, version, paused, storage }),
  };
}
