import { LEASE_SCOPE } from '../../../src-shared/domain/lease';
import { refuse, type ActiveLease, type LeaseBook, type LeaseRefusal } from './lease-book';
import { matchOwner, type LeaseClaim } from './lease-owner-match';

export type FenceResult = { kind: 'ok'; lease: ActiveLease } | LeaseRefusal;

/**
 * The last check before an inference request goes upstream (LEASE-6, LEASE-8): the owner's key,
 * the exact generation, a lease that still holds, and the connection about to be used.
 * Read-only and allocation-free on success, so it can run before every attempt.
 */
export function checkFence(book: LeaseBook, claim: LeaseClaim, connectionId: string, now: number): FenceResult {
  const match = matchOwner(book, claim, now);
  if (match.kind === 'refused') return match;
  if (match.kind === 'ended') return refuse('lease_not_held', 'The lease has ended; acquire a new one');
  if (match.lease.connectionId !== connectionId) {
    return refuse('lease_not_held', 'The lease does not hold the connection chosen for this request');
  }
  return { kind: 'ok', lease: match.lease };
}

/** LEASE-3: only a key with the `lease:exclusive` scope and an explicit, non-empty allowlist may lease. */
export function checkLeaseScope(key: {
  scopes: readonly string[];
  allowedConnections: readonly string[];
}): LeaseRefusal | null {
  if (!key.scopes.includes(LEASE_SCOPE))
    return refuse('lease_scope_required', `This local key lacks the ${LEASE_SCOPE} scope`);
  if (key.allowedConnections.length === 0) {
    return refuse('lease_scope_required', 'A key that leases connections needs a non-empty allowedConnections list');
  }
  return null;
}
