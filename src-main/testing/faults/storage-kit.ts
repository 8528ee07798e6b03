import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '../../db/open';

/**
 * Makes every write fail the way a read-only disk does, through SQLite itself: `PRAGMA query_only`
 * turns the connection read-only and each write gets SQLITE_READONLY ("attempt to write a readonly
 * database"), the code a read-only file gives.
 */
export function makeReadOnly(db: Database, readOnly: boolean): void {
  db.pragma(`query_only = ${readOnly ? 'ON' : 'OFF'}`);
}

/** The page count SQLite allows by default (2^30 - 1): what "room again" restores. */
const NO_LIMIT = 1_073_741_823;

/**
 * Makes the database full the way a full disk does, through SQLite itself: the connection may grow
 * by no page any more (PRAGMA max_page_count) and the free pages left are filled, so every later
 * write that needs a new page fails with SQLITE_FULL ("database or disk is full"). A write that fits
 * in a page it already has still succeeds, as it would on a full disk with room left in the file.
 */
export function fillDatabase(db: Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS test_filler (x BLOB)');
  const pages = Number(db.pragma('page_count', { simple: true }));
  db.pragma(`max_page_count = ${pages}`);
  const insert = db.prepare('INSERT INTO test_filler VALUES (zeroblob(512))');
  for (let i = 0; i < 100_000; i++) {
    try {
      insert.run();
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_FULL') return;
      throw error;
    }
  }
  throw new Error('the database never filled');
}

/** Room again: the limit lifted and the filler dropped. */
export function unfillDatabase(db: Database): void {
  db.pragma(`max_page_count = ${NO_LIMIT}`);
  db.exec('DROP TABLE IF EXISTS test_filler');
}

/** A tiny tmpfs mounted for one test, or why none can be (mount needs root: CI may not have it). */
export type Tmpfs = { ok: true; dir: string; unmount(): void } | { ok: false; reason: string };

/** Mounts a tmpfs of `kilobytes` on a fresh folder (Linux, as root); the real ENOSPC and EROFS come from it. */
export function mountTmpfs(kilobytes: number): Tmpfs {
  if (process.platform !== 'linux') return { ok: false, reason: 'tmpfs is Linux only' };
  if (process.getuid?.() !== 0) return { ok: false, reason: 'mounting a tmpfs needs root' };
  const dir = mkdtempSync(join(tmpdir(), 'leeway-tmpfs-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${kilobytes}k`, 'tmpfs', dir], { encoding: 'utf8' });
  if (mounted.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return { ok: false, reason: `mount failed: ${(mounted.stderr || mounted.error?.message || '').trim()}` };
  }
  return {
    ok: true,
    dir,
    unmount() {
      spawnSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Remounts a tmpfs read-only or read-write again (nothing may hold a file open for writing to go read-only). */
export function remount(dir: string, mode: 'ro' | 'rw'): void {
  const result = spawnSync('mount', ['-o', `remount,${mode}`, dir], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`remount ${mode} failed: ${result.stderr.trim()}`);
}

/** Fills the file system holding `dir` with one file until it has no byte left (a real ENOSPC); returns its path. */
export function fillDisk(dir: string): string {
  const file = join(dir, 'filler');
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) {
      try {
        writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
        throw error;
      }
    }
    // The last partial chunk: a byte at a time would be slow, so halve until nothing fits.
    for (let size = 32 * 1024; size >= 1; size = Math.floor(size / 2)) {
      try {
        for (;;) writeSync(fd, chunk.subarray(0, size));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
  return file;
}
