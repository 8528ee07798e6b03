import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fail, ok, type Result } from '../../src-shared/contract/errors';
import { acquireDataDirLock, type DataDirLock } from '../data-dir/data-dir-lock';
import { createDataDir, secureDataDir } from '../data-dir/data-dir-modes';
import { describeStartFault, storageFaultOf } from '../db/storage-fault';
import type { Disposers } from './disposers';

export const DB_FILE = 'leeway.sqlite';

/** The data directory, created if needed and locked for this instance (issue 8). */
export interface DataDir {
  dir: string;
  dbFile: string;
  /** Whether this start created the directory: a start that fails later removes it again. */
  created: boolean;
  lock: DataDirLock;
  /** After SQLite, the key file and the token exist: tightens them all (0700/0600), and whatever an older version left. */
  secure(): void;
}

/**
 * Creates (if needed) and locks the data directory; the lock's release is pushed on `disposers`,
 * and with it, when the start fails after this point (`failedStart`), the removal of a directory
 * this start created. A lock held by another instance is refused, and its directory left alone.
 */
export function openDataDir(dir: string, now: number, disposers: Disposers): Result<DataDir> {
  let created: boolean;
  try {
    created = createDataDir(dir);
  } catch (error) {
    const fault = storageFaultOf(error);
    if (fault) return fail('storage_unavailable', describeStartFault(dir, fault));
    return fail(
      'internal_error',
      `Cannot create the data directory ${dir} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  let locked: Result<DataDirLock>;
  try {
    locked = acquireDataDirLock(dir, now);
  } catch (error) {
    // A disk that refuses the lock file (full, read-only): what this start created goes again.
    if (created) rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  // Another instance won the race: its directory is not ours to remove.
  if (!locked.ok) return locked;
  const lock = locked.value;
  disposers.push(({ failedStart }) => {
    lock.release();
    if (failedStart && created) rmSync(dir, { recursive: true, force: true });
  });
  return ok({ dir, dbFile: join(dir, DB_FILE), created, lock, secure: () => secureDataDir(dir) });
}
