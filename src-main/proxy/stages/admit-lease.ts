import type { AppError } from '../../../src-shared/contract/errors';
import type { TargetExclusion } from '../../../src-shared/domain/cooldown';
import { hashLeaseOwner } from '../../db/lease-owner-material';
import type { HeaderBag } from '../../routing/affinity/session-key';
import { admitLeases } from '../../routing/leases/lease-admission';
import { readLeaseHeaders } from '../../routing/leases/lease-headers';
import type { LeaseClaim } from '../../routing/leases/lease-owner-match';
import type { Target } from '../../kernel/target';
import type { ProxyContext } from '../proxy-context';
import { noTarget, type NoTarget } from './no-target-error';

/** The lease a request presented, read once before the plan (LEASE-6): malformed headers are refused. */
export function leaseClaimOf(
  headers: HeaderBag,
  keyId: string,
): { ok: true; claim: LeaseClaim | null } | { ok: false; error: AppError } {
  const presented = readLeaseHeaders(headers).presented;
  if (presented.kind === 'none') return { ok: true, claim: null };
  if (presented.kind === 'refused') return { ok: false, error: { code: presented.code, message: presented.message } };
  return { ok: true, claim: { ownerHash: hashLeaseOwner(presented.owner), generation: presented.generation, keyId } };
}

/**
 * The admit stage's list gate (LEASE-1, LEASE-9, LEASE-11, LEASE-12): a lease holder goes only to its
 * connection (or the same generation moves to a free one); everyone else skips connections other
 * owners hold. Every candidate held by others is a 429 with Retry-After; none at all, ordinary routing.
 */
export function admitLeaseGate(
  ctx: ProxyContext,
  model: string,
  candidates: readonly Target[],
  excluded: TargetExclusion[],
  claim: LeaseClaim | null,
): { ok: true; candidates: readonly Target[] } | NoTarget {
  const book = ctx.sessions.leases.book();
  const now = ctx.now();
  const step = admitLeases(book, candidates, (t) => t.connection.view.id, claim, now);
  const decision = step.decision;
  switch (decision.kind) {
    case 'free':
    case 'held':
    case 'moved': {
      if (step.book !== book) {
        const stored = ctx.sessions.leases.commit(step.book);
        if (!stored.ok) return { kind: 'refused', error: stored.error };
      }
      if (decision.allowed.length !== candidates.length) {
        for (const t of candidates) {
          if (!decision.allowed.includes(t))
            excluded.push({
              connection: t.connection.view.name,
              model: t.upstreamModel,
              reason: 'leased',
              retryAfterSeconds: null,
              detail: "held by another session's exclusive lease",
            });
        }
      }
      return { ok: true, candidates: decision.allowed };
    }
    case 'capacity_unavailable':
      return {
        kind: 'refused',
        error: {
          code: 'lease_capacity_unavailable',
          message: `Every connection for this request is held by another session's exclusive lease; retry in ${decision.retryAfterSeconds}s`,
          retryAfterMs: decision.retryAfterSeconds * 1000,
          details: {
            state: 'waiting_for_capacity',
            eligibleCount: decision.eligibleCount,
            freeCount: decision.freeCount,
          },
        },
      };
    case 'no_eligible_connection':
      return noTarget(model, excluded);
    case 'refused':
      return { kind: 'refused', error: { code: decision.code, message: decision.message } };
  }
}
