import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './open';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'leeway-open-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('openDatabase', () => {
  it('PROD-3: opens a file database in WAL mode with foreign keys, busy timeout and synchronous=NORMAL', () => {
    const db = openDatabase(join(tempDir(), 'leeway.sqlite'));
    cleanups.unshift(() => db.close());
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(db.pragma('synchronous', { simple: true })).toBe(1); // 1 = NORMAL
  });

  it('PROD-3: creates missing parent directories', () => {
    const file = join(tempDir(), 'a', 'b', 'leeway.sqlite');
    const db = openDatabase(file);
    cleanups.unshift(() => db.close());
    db.exec('CREATE TABLE t (x INTEGER)');
    expect(existsSync(file)).toBe(true);
  });

  it('PROD-3: accepts :memory: and still enforces foreign keys', () => {
    const db = openDatabase(':memory:');
    cleanups.push(() => db.close());
    db.exec('CREATE TABLE p (id INTEGER PRIMARY KEY); CREATE TABLE c (p INTEGER REFERENCES p (id));');
    expect(() => db.prepare('INSERT INTO c (p) VALUES (42)').run()).toThrow(/FOREIGN KEY/);
  });
});
