import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fail, ok, type Result } from '../../src-shared/contract/errors';

/** The lock file; a stale one (its pid is gone, e.g. after kill -9) is taken over. */
export const LOCK_FILE = 'leeway.lock';

/** What the lock file holds: who runs on this data dir, and where it listens once bound. */
export interface LockHolder {
  pid: number;
  port: number | null;
  startedAt: number;
  /** Tells two cores of one process apart, so one never removes the other's lock. */
  id: string;
}

/** The lock this process holds on a data directory. */
export interface DataDirLock {
  /** Records the port once listening, so a refused second instance can name it. */
  setPort(port: number): void;
  /** Removes the lock file, unless another instance has since taken it over. */
  release(): void;
}

function isAlive(pid: number): boolean {
  // pid 0 and negatives name process groups, never a holder.
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but another user's process.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(file: string): LockHolder | null {
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as Partial<LockHolder>;
    if (typeof raw.pid !== 'number' || typeof raw.startedAt !== 'number' || typeof raw.id !== 'string') return null;
    return { pid: raw.pid, port: typeof raw.port === 'number' ? raw.port : null, startedAt: raw.startedAt, id: raw.id };
  } catch {
    return null;
  }
}

/** Writes the whole content to a temp file first, so the lock is never seen half written. */
function writeTemp(file: string, holder: LockHolder): string {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(temp, JSON.stringify(holder) + '\n', { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // A full disk creates the file and then refuses its bytes: leave no empty temp file behind.
    rmSync(temp, { force: true });
    throw error;
  }
  return temp;
}

/** Creates the lock atomically with its content: link() fails with EEXIST when it is held. */
function tryCreate(file: string, holder: LockHolder): boolean {
  const temp = writeTemp(file, holder);
  try {
    linkSync(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    // A file system without hard links: exclusive create is the next best thing.
    try {
      writeFileSync(file, JSON.stringify(holder) + '\n', { mode: 0o600, flag: 'wx' });
      return true;
    } catch (fallback) {
      if ((fallback as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw fallback;
    }
  } finally {
    rmSync(temp, { force: true });
  }
}

/** The one line a refused instance prints: the data dir and where the running one listens. */
export function describeHolder(dir: string, holder: LockHolder): string {
  const where = holder.port === null ? 'still starting' : `port ${holder.port}`;
  return `Another Leeway (pid ${holder.pid}, ${where}) is already using the data directory ${dir}; stop it first or choose another with --data-dir <dir>`;
}

/** Refuses when a live instance holds the lock; reads only, so a refused start writes nothing. */
export function checkDataDirFree(dir: string): Result<void> {
  const holder = readHolder(join(dir, LOCK_FILE));
  return holder !== null && isAlive(holder.pid) ? fail('conflict', describeHolder(dir, holder)) : ok(undefined);
}

/** Takes the exclusive lock on `dir` (which must exist), or says who holds it. */
export function acquireDataDirLock(dir: string, now: number): Result<DataDirLock> {
  const file = join(dir, LOCK_FILE);
  let mine: LockHolder = { pid: process.pid, port: null, startedAt: now, id: randomBytes(8).toString('hex') };
  const isMine = (): boolean => readHolder(file)?.id === mine.id;
  const lock: DataDirLock = {
    setPort(port) {
      if (!isMine()) return;
      mine = { ...mine, port };
      renameSync(writeTemp(file, mine), file);
    },
    release() {
      if (isMine()) rmSync(file, { force: true });
    },
  };
  // A few rounds: another instance may take over the same stale lock at the same moment.
  for (let round = 0; round < 3; round++) {
    if (tryCreate(file, mine)) return ok(lock);
    const holder = readHolder(file);
    if (holder !== null && isAlive(holder.pid)) return fail('conflict', describeHolder(dir, holder));
    try {
      unlinkSync(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return fail('conflict', `Cannot take the lock ${file}; another Leeway may be starting on ${dir}`);
}
