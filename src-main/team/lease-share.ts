import type { LeaseEndReason } from '../../src-shared/domain/lease';
import type { Lease } from '../routing/leases/lease-book';
import type { LeasesRepo } from '../routing/leases/lease-store';
import { mergeLease } from './lease-merge';

/**
 * Exclusive leases shared with the team (issue 24 §4): a lease held through one instance keeps
 * other owners off its connection on every instance (LEASE-1, LEASE-11), and its release or end
 * frees it everywhere. Facts are keyed by owner hash (already SHA-256, LEASE-7) and carry the key's
 * and the connection's names; an instance without that connection or that key name ignores the
 * fact (its rows reference both), so a team names its lease keys alike.
 */
export interface LeaseFact {
  owner: string;
  key: string;
  connection: string;
  generation: number;
  acquiredAt: number;
  renewedAt: number;
  expiresAt: number;
  endedAt?: number;
  reason?: LeaseEndReason;
}

export interface LeaseShareDeps {
  share(owner: string, json: string, at: number): void;
  keyIdOf(name: string): string | null;
  keyNameOf(id: string): string | null;
  idOf(connectionName: string): string | null;
  nameOf(connectionId: string): string | null;
  now(): number;
}

export interface LeaseShare {
  /** The lease store's watcher: each committed change goes to the team. */
  heard(changes: ReadonlyMap<string, Lease | null>): void;
  /** A fact from the team merged into the book; returns the local leases it ended (to tell the team). */
  absorb(json: string, leases: LeasesRepo): Lease[];
}

const END_REASONS: readonly LeaseEndReason[] = [
  'owner_exit',
  'client_cancelled',
  'ttl_expired',
  'key_revoked',
  'connection_removed',
  'cleared',
];

export function createLeaseShare(deps: LeaseShareDeps): LeaseShare {
  const factOf = (lease: Lease): LeaseFact | null => {
    const connection = deps.nameOf(lease.connectionId);
    const key = deps.keyNameOf(lease.keyId);
    if (connection === null || key === null) return null;
    const { ownerHash: owner, generation, acquiredAt, renewedAt, expiresAt } = lease;
    const fact: LeaseFact = { owner, key, connection, generation, acquiredAt, renewedAt, expiresAt };
    if (lease.kind === 'ended') Object.assign(fact, { endedAt: lease.endedAt, reason: lease.reason });
    return fact;
  };

  const leaseOf = (fact: LeaseFact): Lease | null => {
    const connectionId = deps.idOf(fact.connection);
    const keyId = deps.keyIdOf(fact.key);
    if (connectionId === null || keyId === null) return null;
    const { owner: ownerHash, generation, acquiredAt, renewedAt, expiresAt } = fact;
    const base = { ownerHash, keyId, connectionId, generation, acquiredAt, renewedAt, expiresAt };
    if (fact.endedAt === undefined || fact.reason === undefined) return { ...base, kind: 'active' };
    return { ...base, kind: 'ended', endedAt: fact.endedAt, reason: fact.reason };
  };

  const tell = (lease: Lease): void => {
    const fact = factOf(lease);
    if (fact !== null)
      deps.share(fact.owner, JSON.stringify(fact), lease.kind === 'ended' ? lease.endedAt : lease.renewedAt);
  };

  return {
    heard(changes) {
      // A pruned row (null) is local housekeeping: the team keeps the ended fact until its own prune.
      for (const lease of changes.values()) if (lease !== null) tell(lease);
    },
    absorb(json, leases) {
      const fact = parseLeaseFact(json);
      const lease = fact === null ? null : leaseOf(fact);
      if (lease === null) return [];
      const merged = mergeLease(leases.book(), lease, deps.now());
      if (merged === null || !leases.commit(merged.book).ok) return [];
      return merged.losers;
    },
  };
}

/** Ended or lapsed a day ago: no instance needs the fact to order generations any more (each keeps its row). */
export const LEASE_FACT_KEEP_MS = 24 * 3_600_000;

export function leaseFactStale(json: string, now: number): boolean {
  const fact = parseLeaseFact(json);
  return fact === null || Math.max(fact.expiresAt, fact.endedAt ?? 0) + LEASE_FACT_KEEP_MS <= now;
}

function parseLeaseFact(json: string): LeaseFact | null {
  try {
    const v: unknown = JSON.parse(json);
    if (typeof v !== 'object' || v === null) return null;
    const f = v as Partial<LeaseFact>;
    if (typeof f.owner !== 'string' || typeof f.key !== 'string' || typeof f.connection !== 'string') return null;
    const numbers = [f.generation, f.acquiredAt, f.renewedAt, f.expiresAt];
    if (!numbers.every((n) => typeof n === 'number')) return null;
    if (f.endedAt !== undefined && typeof f.endedAt !== 'number') return null;
    if (f.reason !== undefined && !END_REASONS.includes(f.reason)) return null;
    return f as LeaseFact;
  } catch {
    return null;
  }
}
