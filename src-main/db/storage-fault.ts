/**
 * Issue 21 §16: errors that mean the data directory cannot take writes (a full or read-only disk,
 * permissions, I/O errors, a lock held elsewhere, a damaged file), told apart from bugs. SQLite's
 * codes come from better-sqlite3's SqliteError (extended codes included: SQLITE_IOERR_WRITE …),
 * the system's from Node's fs errors.
 */
export type FaultKind = 'full' | 'quota' | 'too-large' | 'read-only' | 'denied' | 'io' | 'busy' | 'damaged';

export interface StorageFault {
  kind: FaultKind;
  /** The code as reported: SQLITE_FULL, SQLITE_READONLY_DBMOVED, ENOSPC … */
  code: string;
}

const BY_SYSTEM_CODE: Record<string, FaultKind> = {
  ENOSPC: 'full',
  EDQUOT: 'quota',
  EFBIG: 'too-large',
  EROFS: 'read-only',
  EACCES: 'denied',
  EPERM: 'denied',
  EIO: 'io',
};

/** By SQLite's primary code (the part before an extended code's second underscore). */
const BY_SQLITE_CODE: Record<string, FaultKind> = {
  SQLITE_FULL: 'full',
  SQLITE_READONLY: 'read-only',
  SQLITE_PERM: 'denied',
  SQLITE_CANTOPEN: 'denied',
  SQLITE_IOERR: 'io',
  SQLITE_BUSY: 'busy',
  SQLITE_LOCKED: 'busy',
  SQLITE_CORRUPT: 'damaged',
  SQLITE_NOTADB: 'damaged',
};

/** What a running Leeway says fails, with the code: "the disk is full (SQLITE_FULL)". */
const RUNNING: Record<FaultKind, string> = {
  full: 'the disk is full',
  quota: 'the disk quota is used up',
  'too-large': 'a file reached the size limit',
  'read-only': 'the data directory is read-only',
  denied: 'the data directory is not writable (permission denied)',
  io: 'the disk reported an I/O error',
  busy: 'the database is locked by another process',
  damaged: 'the database file is damaged',
};

/** How a start that cannot write ends its one line: "the data directory /x is full (ENOSPC); …". */
const AT_START: Record<FaultKind, string> = {
  full: 'is full',
  quota: 'is over its disk quota',
  'too-large': 'cannot grow: a file reached the size limit',
  'read-only': 'is read-only',
  denied: 'is not writable (permission denied)',
  io: 'gave an I/O error',
  busy: 'holds a database locked by another process',
  damaged: 'holds a damaged database file',
};

const HINT: Record<FaultKind, string> = {
  full: 'free some space and start again',
  quota: 'free some space and start again',
  'too-large': 'raise the file size limit (ulimit -f) and start again',
  'read-only': 'make it writable or choose another with --data-dir',
  denied: 'fix its permissions or choose another with --data-dir',
  io: 'check the disk, or choose another directory with --data-dir',
  busy: 'stop the other process and start again',
  damaged: 'restore it from a backup, or move it away to start afresh',
};

function codeOf(error: unknown): string | null {
  if (typeof error !== 'object' || error === null || !('code' in error)) return null;
  return typeof error.code === 'string' ? error.code : null;
}

/** The storage fault an error stands for, or null when it is something else (a bug). */
export function storageFaultOf(error: unknown): StorageFault | null {
  const code = codeOf(error);
  if (code === null) return null;
  const system = BY_SYSTEM_CODE[code];
  if (system !== undefined) return { kind: system, code };
  const primary = /^SQLITE_[A-Z]+/.exec(code)?.[0];
  const sqlite = primary === undefined ? undefined : BY_SQLITE_CODE[primary];
  return sqlite === undefined ? null : { kind: sqlite, code };
}

/** "the disk is full (SQLITE_FULL)": what fails while running, for /health, the banner and admin errors. */
export function describeFault(fault: StorageFault): string {
  return `${RUNNING[fault.kind]} (${fault.code})`;
}

/** The one line a start that cannot write gives: what is wrong with which directory, and what to do. */
export function describeStartFault(dataDir: string, fault: StorageFault): string {
  return `cannot start: the data directory ${dataDir} ${AT_START[fault.kind]} (${fault.code}); ${HINT[fault.kind]}`;
}
