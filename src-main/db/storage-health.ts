import { STORAGE_OK, type StorageStatus } from '../../src-shared/domain/storage-status';
import type { Database } from './open';
import { describeFault, storageFaultOf } from './storage-fault';

type Listener = (next: StorageStatus, previous: StorageStatus) => void;

/**
 * Issue 21 §16: whether the data directory takes writes. Any write that fails on storage reports
 * it (degraded at once); only the core's storage timer says it recovered, after a round in which
 * the held activity rows, every kept write-through and a probe write all succeeded.
 */
export interface StorageHealth {
  status(): StorageStatus;
  /** Told each new status: degraded, recovered, or the rows held for the disk changed. */
  subscribe(listener: Listener): void;
  /** Records `error` when it is a storage fault and says whether it was one (false: a bug; rethrow it). */
  report(error: unknown): boolean;
  /**
   * Runs a write-through (a cooldown, a breaker, a key's last use): a storage fault is reported and
   * the write kept, the latest per `key`, to be written again on recovery; anything else is thrown.
   */
  guard(key: string, write: () => void): void;
  /** Faults reported so far: `settle` looks whether a round added none. */
  faults(): number;
  /** The storage timer's round: see the interface's note. `held`: the request log's counts now. */
  settle(faultsBefore: number, probe: () => void, held: { rows: number; dropped: number }): void;
}

export function createStorageHealth(now: () => number): StorageHealth {
  let current: StorageStatus = STORAGE_OK;
  let faults = 0;
  const kept = new Map<string, () => void>();
  const listeners: Listener[] = [];
  const set = (next: StorageStatus): void => {
    const previous = current;
    const same =
      previous.ok === next.ok &&
      previous.error === next.error &&
      previous.heldRows === next.heldRows &&
      previous.droppedRows === next.droppedRows;
    current = next;
    if (!same) for (const listener of listeners) listener(next, previous);
  };
  const report = (error: unknown): boolean => {
    const fault = storageFaultOf(error);
    if (fault === null) return false;
    faults++;
    // The first fault names the trouble and its start; later ones (the same disk) change nothing.
    if (current.ok) set({ ...current, ok: false, error: describeFault(fault), code: fault.code, since: now() });
    return true;
  };
  return {
    status: () => current,
    subscribe: (listener) => void listeners.push(listener),
    report,
    guard(key, write) {
      try {
        write();
      } catch (error) {
        if (!report(error)) throw error;
        kept.set(key, write);
      }
    },
    faults: () => faults,
    settle(faultsBefore, probe, held) {
      const counts = { heldRows: held.rows, droppedRows: held.dropped };
      if (current.ok || faults !== faultsBefore) return set({ ...current, ...counts });
      try {
        for (const [key, write] of kept) {
          write();
          kept.delete(key);
        }
        probe();
      } catch (error) {
        if (!report(error)) throw error;
        return set({ ...current, ...counts });
      }
      set({ ...STORAGE_OK, ...counts });
    },
  };
}

/** The health of each opened database, for repositories that only hold the database. */
const healthOf = new WeakMap<Database, StorageHealth>();

export function attachStorageHealth(db: Database, health: StorageHealth): void {
  healthOf.set(db, health);
}

/**
 * A write-through a request or a background task makes (never an admin write, whose caller must
 * hear the refusal): guarded by the database's health when it has one (see `StorageHealth.guard`).
 */
export function guardedWrite(db: Database, key: string, write: () => void): void {
  const health = healthOf.get(db);
  if (health) health.guard(key, write);
  else write();
}

/** Reports a caught write error to the database's health; true when it was a storage fault. */
export function reportStorageFault(db: Database, error: unknown): boolean {
  return healthOf.get(db)?.report(error) ?? storageFaultOf(error) !== null;
}
