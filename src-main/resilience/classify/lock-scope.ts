import type { LockScope } from './classification';

/** Quota and entitlement statuses: they lock the whole quota family of the model (LOCK-2). */
const QUOTA_FAMILY_STATUSES: ReadonlySet<number> = new Set([402, 403, 429]);

/**
 * LOCK-2..5 (seed: resolveLockoutScope): the failing status decides the lockout key — 429/403/402
 * the quota family, 404 the bare model, anything else (5xx, transport, our synthesised 502) the
 * exact provider/connection/model triple. A scope the caller passes always wins.
 */
export function resolveLockScope(status: number | null, explicit?: LockScope): LockScope {
  if (explicit) return explicit;
  if (status !== null && QUOTA_FAMILY_STATUSES.has(status)) return 'quota_family';
  if (status === 404) return 'model';
  return 'exact';
}
