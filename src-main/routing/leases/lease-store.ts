import { fail, ok, type Result } from '../../../src-shared/contract/errors';
import { EMPTY_LEASE_BOOK, type Lease, type LeaseBook } from './lease-book';

/** Where leases persist (db/lease-rows.ts implements it with SQL only). */
export interface LeaseRows {
  loadAll(): Lease[];
  /**
   * Writes each owner's newest lease (null: its row goes) in one transaction; throws when the
   * write fails, having reported a disk fault as degraded storage.
   */
  writeChanges(changes: ReadonlyMap<string, Lease | null>): void;
}

/**
 * Exclusive leases (LEASE-2), one row per owner. The current book lives in memory for the request
 * path's fence checks; lifecycle changes (acquire, renew, release, a LEASE-9 move) are written at
 * once, in one transaction, before the new book is used: they are rare, and a hard fence must
 * survive a crash. A failed write leaves memory on the previous book, equal to the table.
 */
export interface LeasesRepo {
  /** The book as of the last successful commit. Memory only. */
  book(): LeaseBook;
  /** Persists what differs between the current book and `next`, then makes `next` current. */
  commit(next: LeaseBook): Result<LeaseBook>;
  /** Hears each committed change (owner → newest lease, null when pruned); the team share publishes them. */
  watch(listener: (changes: ReadonlyMap<string, Lease | null>) => void): void;
}

/** Every owner whose newest lease differs between the two books; `null` when it was pruned. */
export function leaseChanges(prev: LeaseBook, next: LeaseBook): Map<string, Lease | null> {
  const changes = new Map<string, Lease | null>();
  const owners = new Set([
    ...Object.keys(prev.active),
    ...Object.keys(prev.ended),
    ...Object.keys(next.active),
    ...Object.keys(next.ended),
  ]);
  for (const owner of owners) {
    const before = prev.active[owner] ?? prev.ended[owner];
    const after = next.active[owner] ?? next.ended[owner];
    if (before !== after) changes.set(owner, after ?? null);
  }
  return changes;
}

/** The book over its stored rows, loaded once. */
export function createLeasesRepo(rows: LeaseRows): LeasesRepo {
  const active: Record<string, Lease & { kind: 'active' }> = {};
  const ended: Record<string, Lease & { kind: 'ended' }> = {};
  for (const lease of rows.loadAll()) {
    if (lease.kind === 'active') active[lease.ownerHash] = lease;
    else ended[lease.ownerHash] = lease;
  }
  let current: LeaseBook =
    Object.keys(active).length + Object.keys(ended).length === 0 ? EMPTY_LEASE_BOOK : { active, ended };
  const listeners: Array<(changes: ReadonlyMap<string, Lease | null>) => void> = [];
  return {
    book: () => current,
    commit: (next) => {
      if (next === current) return ok(current);
      const changes = leaseChanges(current, next);
      try {
        rows.writeChanges(changes);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return fail('storage_unavailable', `Could not store the lease change: ${message}`);
      }
      current = next;
      for (const listener of listeners) listener(changes);
      return ok(current);
    },
    watch: (listener) => void listeners.push(listener),
  };
}
