import { chmodSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** POSIX permission bits mean nothing on Windows; there the profile's ACL guards the folder. */
export const POSIX_MODES = process.platform !== 'win32';

export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

/**
 * Creates the data directory owner-only; `mkdir`'s mode is filtered by the umask and ignored for a
 * directory that already exists, so the mode is set again explicitly. True when it did not exist.
 */
export function createDataDir(dir: string): boolean {
  const existed = existsSync(dir);
  mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  if (POSIX_MODES) chmodSync(dir, DIR_MODE);
  return !existed;
}

/**
 * Makes the directory 0700 and every regular file directly in it 0600, whatever earlier versions or
 * the umask left (SQLite creates its files 0644 by default).
 */
export function secureDataDir(dir: string): void {
  if (!POSIX_MODES) return;
  chmodSync(dir, DIR_MODE);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    try {
      chmodSync(join(dir, entry.name), FILE_MODE);
    } catch (error) {
      // A file removed between readdir and chmod (an SQLite -shm at close) needs no mode.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}
