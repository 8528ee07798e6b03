import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDataDir, secureDataDir } from './data-dir-modes';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const mode = (path: string): number => statSync(path).mode & 0o777;

// POSIX permission bits are not enforced on Windows; the profile ACL guards the folder there.
describe.skipIf(process.platform === 'win32')('data dir modes (POSIX file modes; skipped on Windows)', () => {
  it('ISSUE-8 creates the data dir 0700 even under a permissive umask, and says it created it', () => {
    const root = mkdtempSync(join(tmpdir(), 'leeway-modes-'));
    dirs.push(root);
    const previous = process.umask(0o000);
    try {
      expect(createDataDir(join(root, 'a', 'data'))).toBe(true);
    } finally {
      process.umask(previous);
    }
    expect(mode(join(root, 'a', 'data'))).toBe(0o700);
    expect(createDataDir(join(root, 'a', 'data'))).toBe(false);
  });

  it('ISSUE-8 tightens an existing 0755 dir to 0700 and its 0644 files to 0600, leaving subfolders alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'leeway-modes-'));
    dirs.push(dir);
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'leeway.sqlite'), '');
    chmodSync(join(dir, 'leeway.sqlite'), 0o644);
    writeFileSync(join(dir, 'admin-token'), 'x');
    chmodSync(join(dir, 'admin-token'), 0o666);
    mkdirSync(join(dir, 'backups'), { mode: 0o755 });
    secureDataDir(dir);
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, 'leeway.sqlite'))).toBe(0o600);
    expect(mode(join(dir, 'admin-token'))).toBe(0o600);
    expect(mode(join(dir, 'backups'))).toBe(0o755);
  });
});
