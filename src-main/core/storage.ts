import type { AppError } from '../../src-shared/contract/errors';
import { STORAGE_OK, type StorageStatus } from '../../src-shared/domain/storage-status';
import type { EventBus } from '../kernel/event-bus';
import { MAX_HELD_ROWS } from '../db/request-log-repo';
import { describeFault, storageFaultOf } from '../db/storage-fault';
import type { StorageHealth } from '../db/storage-health';

/**
 * Issue 21 §16: every door hears about the storage's health — the dashboard (`storage.changed`),
 * the terminal and log file (a line when it degrades, when rows start being dropped, when it
 * recovers) — and a degraded disk is the moment to look whether the folder is gone altogether.
 */
export function announceStorageHealth(
  health: StorageHealth,
  deps: { events: EventBus; log: (line: string) => void; now: () => number; dataDir: string; degraded: () => void },
): void {
  health.subscribe((next, previous) => {
    deps.events.emit('storage.changed', { storage: next });
    if (!next.ok && previous.ok) {
      deps.log(
        `Leeway: STORAGE DEGRADED: cannot write ${deps.dataDir}: ${next.error}. Requests are still served; up to ${MAX_HELD_ROWS} activity rows wait in memory and settings changes are refused until it takes writes again.`,
      );
      deps.degraded();
    } else if (next.ok && !previous.ok) {
      const seconds = previous.since === null ? 0 : Math.round((deps.now() - previous.since) / 1000);
      const dropped = next.droppedRows > 0 ? `; ${next.droppedRows} were dropped while it failed` : '';
      deps.log(
        `Leeway: storage writable again after ${seconds} s: the ${previous.heldRows} activity rows held meanwhile are written${dropped}`,
      );
    } else if (next.droppedRows > 0 && previous.droppedRows === 0) {
      deps.log(
        `Leeway: storage still failing: ${MAX_HELD_ROWS} activity rows wait in memory; older ones are dropped from now on (counted on /health)`,
      );
    }
  });
}

/** The refusal an admin write gets when the disk refused it (reported to the health too); null for a bug. */
export function storageRefusal(error: unknown, health: StorageHealth | null): AppError | null {
  const fault = storageFaultOf(error);
  if (fault === null) return null;
  health?.report(error);
  return {
    code: 'storage_unavailable',
    message: `Leeway could not save this: ${describeFault(fault)}. Requests are still served; try again once the disk takes writes.`,
  };
}

/**
 * The status the doors show: the health's (with the rows held right now while it fails, rather
 * than as of the timer's last round), or — once the folder is gone — that loss.
 */
export function storageStatusOf(
  health: StorageHealth | null,
  lost: { message: string; at: number } | null,
  held: { rows: number; dropped: number } | null,
): StorageStatus {
  const status = health?.status() ?? STORAGE_OK;
  if (lost !== null) return { ...status, ok: false, error: lost.message, code: 'lost', since: lost.at };
  return status.ok || held === null ? status : { ...status, heldRows: held.rows, droppedRows: held.dropped };
}
