/**
 * The file side of every agent's setup (issue 23 §2): read a config file as text, back it up before a
 * write (`<file>.leeway-backup-<ms>`, or `….absent` when there was no file), write atomically, and put
 * the newest backup back. Same naming as Claude Code's settings.json backups.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fail, ok, type Result } from '../../src-shared/contract/errors';

const BACKUP_INFIX = '.leeway-backup-';
const ABSENT_SUFFIX = '.absent';

const codeOf = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? 'error';

/** The file's text; null when there is none. */
export function readConfigText(path: string): Result<string | null> {
  if (!existsSync(path)) return ok(null);
  try {
    return ok(readFileSync(path, 'utf8'));
  } catch (error) {
    return fail('internal_error', `Cannot read ${path} (${codeOf(error)})`);
  }
}

/** Writes beside the target and renames over it, so a crash never leaves half a file. */
function writeAtomically(path: string, text: string | Buffer): void {
  // A dotfiles manager's symlink stays a symlink: write where it points.
  const target = existsSync(path) && lstatSync(path).isSymbolicLink() ? realpathSync(path) : path;
  const temp = `${target}.leeway-tmp-${process.pid}`;
  writeFileSync(temp, text, { mode: 0o600 });
  renameSync(temp, target);
}

/** Backs the file up (or records that there was none), then writes `next`; returns the backup's path. */
export function backUpAndWrite(path: string, next: string, now: number): Result<string> {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const existed = existsSync(path);
    const backup = `${path}${BACKUP_INFIX}${now}${existed ? '' : ABSENT_SUFFIX}`;
    writeFileSync(backup, existed ? readFileSync(path) : '', { mode: 0o600 });
    writeAtomically(path, next);
    return ok(backup);
  } catch (error) {
    return fail('internal_error', `Cannot write ${path} (${codeOf(error)})`);
  }
}

export interface Backup {
  file: string;
  at: number;
  absent: boolean;
}

/** Leeway's backups of this file, newest first. */
export function backupsOf(path: string): Backup[] {
  const dir = dirname(path);
  const prefix = `${basename(path)}${BACKUP_INFIX}`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.startsWith(prefix))
    .map((n) => {
      const rest = n.slice(prefix.length);
      const absent = rest.endsWith(ABSENT_SUFFIX);
      return { file: join(dir, n), at: Number(absent ? rest.slice(0, -ABSENT_SUFFIX.length) : rest), absent };
    })
    .filter((b) => Number.isSafeInteger(b.at))
    .sort((x, y) => y.at - x.at);
}

/** Puts a backup back byte for byte (or removes the file when there was none) and uses the backup up. */
export function restoreBackup(path: string, backup: Backup): Result<null> {
  try {
    if (backup.absent) rmSync(path, { force: true });
    else writeAtomically(path, readFileSync(backup.file));
    rmSync(backup.file, { force: true });
    return ok(null);
  } catch (error) {
    return fail('internal_error', `Cannot restore ${path} (${codeOf(error)})`);
  }
}
