import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRotatingFile, LOG_FILE_NAME } from './rotating-file';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'leeway-logs-'));
  dirs.push(d);
  return join(d, 'logs');
};
const line = (i: number) => `${JSON.stringify({ n: i, pad: 'x'.repeat(40) })}\n`;

describe('rotating log file', () => {
  it('ISSUE-13: writes JSON lines asynchronously; close() resolves once every line is in the file', async () => {
    const dir = tempDir();
    const file = createRotatingFile({ dir });
    for (let i = 0; i < 100; i++) file.write(line(i));
    await file.close();
    const lines = readFileSync(join(dir, LOG_FILE_NAME), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(100);
    expect(lines.map((l) => (JSON.parse(l) as { n: number }).n)).toEqual([...Array(100).keys()]);
    if (process.platform !== 'win32') {
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(join(dir, LOG_FILE_NAME)).mode & 0o777).toBe(0o600);
    }
  });

  it('ISSUE-13: size-capped: past maxBytes the files shift, at most maxFiles are kept, no line is lost or split', async () => {
    const dir = tempDir();
    const size = Buffer.byteLength(line(0));
    const file = createRotatingFile({ dir, maxBytes: size * 10, maxFiles: 3 });
    for (let i = 0; i < 45; i++) {
      file.write(line(i));
      // Bursts (lines arriving while a rotation renames files) and pauses, as real traffic has.
      if (i % 17 === 0) await new Promise((r) => setTimeout(r, 5));
    }
    await file.close();
    expect(readdirSync(dir).sort()).toEqual([LOG_FILE_NAME, `${LOG_FILE_NAME}.1`, `${LOG_FILE_NAME}.2`]);
    const read = (name: string) =>
      readFileSync(join(dir, name), 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { n: number }).n);
    const kept = [...read(`${LOG_FILE_NAME}.2`), ...read(`${LOG_FILE_NAME}.1`), ...read(LOG_FILE_NAME)];
    // The newest lines survive in order, ending with the last one; older ones went with the dropped files.
    expect(kept.at(-1)).toBe(44);
    expect(kept).toEqual([...Array(kept.length).keys()].map((i) => 45 - kept.length + i));
    for (const name of readdirSync(dir)) expect(statSync(join(dir, name)).size).toBeLessThanOrEqual(size * 10);
  });

  it('ISSUE-13: appends to the file an earlier run left, counting its size toward the cap', async () => {
    const dir = tempDir();
    const first = createRotatingFile({ dir });
    first.write(line(1));
    await first.close();
    const big = 'y'.repeat(200) + '\n';
    writeFileSync(join(dir, LOG_FILE_NAME), big, { flag: 'a' });
    const second = createRotatingFile({ dir, maxBytes: 250 });
    second.write(line(2));
    await second.close();
    expect(readFileSync(join(dir, `${LOG_FILE_NAME}.1`), 'utf8')).toBe(line(1) + big);
    expect(readFileSync(join(dir, LOG_FILE_NAME), 'utf8')).toBe(line(2));
  });
});
