import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileWriter } from './file-writer';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('asynchronous file writer', () => {
  it('ISSUE-13: write returns before the disk is touched; close resolves with every line written, in order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'leeway-writer-'));
    dirs.push(dir);
    const path = join(dir, 'out.log');
    const writer = createFileWriter(path, () => undefined);
    for (let i = 0; i < 1_000; i++) writer.write(`${i}\n`);
    // Nothing can be written yet: opening and writing happen off this turn of the loop.
    expect(existsSync(path) ? readFileSync(path, 'utf8') : '').toBe('');
    await writer.close();
    expect(readFileSync(path, 'utf8')).toBe([...Array(1_000).keys()].map((i) => `${i}\n`).join(''));
    writer.write('after close\n');
    expect(readFileSync(path, 'utf8')).not.toContain('after close');
  });

  it('ISSUE-13: a file that cannot be opened reports once, drops lines and still closes', async () => {
    const errors: string[] = [];
    const writer = createFileWriter(join(tmpdir(), 'no-such-dir-leeway', 'x', 'out.log'), (e) =>
      errors.push((e as NodeJS.ErrnoException).code ?? e.message),
    );
    writer.write('lost\n');
    await writer.close();
    expect(errors).toEqual(['ENOENT']);
  });
});
