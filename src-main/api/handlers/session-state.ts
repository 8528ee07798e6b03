import { fail, ok, type Result } from '../../../src-shared/contract/errors';
import type { LeaseEndReason } from '../../../src-shared/domain/lease';
import { endLeasesWhere } from '../../routing/leases/lease-lifecycle';
import type { HandlerDeps } from './handler-deps';
import { emitSessionsChanged } from './session-views';

type Deps = Pick<HandlerDeps, 'affinity' | 'leases' | 'keys' | 'connections' | 'settings' | 'events'>;
type Match = { keyId: string } | { connectionId: string } | 'all';

/** Ends the matching active leases in one stored change; the count is how many ended. */
export function endLeases(deps: Deps, match: Match, reason: LeaseEndReason, now: number): Result<number> {
  const before = deps.leases.book();
  const next = endLeasesWhere(before, match, reason, now);
  const ended = Object.keys(before.active).filter((owner) => next.ended[owner]?.reason === reason).length;
  const committed = deps.leases.commit(next);
  return committed.ok ? ok(ended) : committed;
}

/**
 * A revoked key or a removed connection takes its pins and leases with it (LEASE `key_revoked`,
 * `connection_removed`). Called before a connection's row goes: the ended lease is written while
 * the row it names still exists, and the foreign key's cascade then removes both.
 */
export function forgetSessionsOf(
  deps: Deps,
  match: { keyId: string } | { connectionId: string },
  now: number,
): Result<void> {
  const pins = deps.affinity.clear(match);
  const reason: LeaseEndReason = 'keyId' in match ? 'key_revoked' : 'connection_removed';
  const leases = endLeases(deps, match, reason, now);
  if (!leases.ok) return fail(leases.error.code, leases.error.message);
  if (pins + leases.value > 0) emitSessionsChanged(deps, now);
  return ok(undefined);
}
