import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchDataDir } from './data-dir-watch';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function dataDir(): { root: string; dir: string; db: string } {
  const root = mkdtempSync(join(tmpdir(), 'leeway-watch-'));
  dirs.push(root);
  const dir = join(root, 'data');
  mkdirSync(dir);
  writeFileSync(join(dir, 'leeway.sqlite'), '');
  return { root, dir, db: join(dir, 'leeway.sqlite') };
}

describe('data dir watch', () => {
  it('ISSUE-8 reports a deleted data dir once, from its periodic look', async () => {
    const { dir, db } = dataDir();
    const reasons: string[] = [];
    const watch = watchDataDir([dir, db], (r) => reasons.push(r), 20);
    expect(watch.check()).toBeNull();
    rmSync(dir, { recursive: true });
    const until = Date.now() + 2_000;
    while (reasons.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 60));
    expect(reasons).toEqual([`${dir} was deleted`]);
    watch.stop();
  });

  it('ISSUE-8 reports a database file swapped for another under the same name when asked after a failed write', () => {
    const { root, dir, db } = dataDir();
    const reasons: string[] = [];
    const watch = watchDataDir([dir, db], (r) => reasons.push(r), 60_000);
    renameSync(db, join(root, 'moved.sqlite'));
    writeFileSync(db, '');
    expect(watch.check()).toBe(`${db} was replaced`);
    expect(watch.check()).toBe(`${db} was replaced`);
    expect(reasons).toEqual([`${db} was replaced`]);
    watch.stop();
  });
});
