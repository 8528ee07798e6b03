import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, checkDataDirFree, LOCK_FILE } from './data-dir-lock';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'leeway-lock-'));
  dirs.push(dir);
  return dir;
}
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  if (child.pid === undefined) throw new Error('could not spawn a child');
  return child.pid;
}
const held = (dir: string): unknown => JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'));

describe('data dir lock', () => {
  it('ISSUE-8 refuses a second holder with one line naming the dir and the holder port, and reads only when checking', () => {
    const dir = tempDir();
    const first = acquireDataDirLock(dir, 1);
    if (!first.ok) throw new Error(first.error.message);
    first.value.setPort(7431);
    const second = acquireDataDirLock(dir, 2);
    expect(second.ok).toBe(false);
    if (!second.ok) {
      expect(second.error.message).toContain(dir);
      expect(second.error.message).toContain('port 7431');
      expect(second.error.message).not.toContain('\n');
    }
    const checked = checkDataDirFree(dir);
    expect(checked.ok).toBe(false);
    expect(readdirSync(dir)).toEqual([LOCK_FILE]);
    expect(held(dir)).toMatchObject({ pid: process.pid, port: 7431, startedAt: 1 });
  });

  it('ISSUE-8 takes over a lock whose pid is dead, or whose content is unreadable', () => {
    const dir = tempDir();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: deadPid(), port: 1, startedAt: 0, id: 'old' }));
    expect(checkDataDirFree(dir).ok).toBe(true);
    const taken = acquireDataDirLock(dir, 5);
    expect(taken.ok).toBe(true);
    expect(held(dir)).toMatchObject({ pid: process.pid, port: null, startedAt: 5 });
    if (taken.ok) taken.value.release();

    writeFileSync(join(dir, LOCK_FILE), '{"pid": 12');
    expect(acquireDataDirLock(dir, 6).ok).toBe(true);
  });

  it('ISSUE-8 release removes only its own lock, never one another instance took over', () => {
    const dir = tempDir();
    const mine = acquireDataDirLock(dir, 1);
    if (!mine.ok) throw new Error(mine.error.message);
    mine.value.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);

    const again = acquireDataDirLock(dir, 2);
    if (!again.ok) throw new Error(again.error.message);
    const other = JSON.stringify({ pid: process.pid, port: 9, startedAt: 3, id: 'someone-else' });
    writeFileSync(join(dir, LOCK_FILE), other);
    again.value.release();
    again.value.setPort(1234);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(other);
  });

  it.skipIf(process.platform === 'win32')(
    'ISSUE-8 (POSIX file modes; skipped on Windows) writes the lock 0600 and leaves no temp file behind',
    () => {
      const dir = tempDir();
      const lock = acquireDataDirLock(dir, 1);
      if (!lock.ok) throw new Error(lock.error.message);
      lock.value.setPort(80);
      expect(readdirSync(dir)).toEqual([LOCK_FILE]);
      expect(statSync(join(dir, LOCK_FILE)).mode & 0o777).toBe(0o600);
    },
  );
});
