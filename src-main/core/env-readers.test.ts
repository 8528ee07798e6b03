import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * Issue 22 step 4: the environment is read once, by the entries, into core/env.ts's Env and passed
 * down. eslint.config.js refuses `process.env` elsewhere; this looks at the whole tree, so a file
 * the lint configuration stopped covering still counts. Test code (which sets variables for a
 * start) is exempt, as it is from the rule.
 */
const srcMain = path.resolve(import.meta.dirname, '..');
const ENTRIES = ['headless.ts', 'shell/start-shell.ts'];

function productionFiles(dir: string): string[] {
  return readdirSync(path.join(srcMain, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) return rel === 'testing' ? [] : productionFiles(rel);
    const testCode = /\.(test|testkit)\.tsx?$/.test(entry.name);
    return /\.tsx?$/.test(entry.name) && !testCode ? [rel] : [];
  });
}

describe('who reads the environment (issue 22)', () => {
  it('ISSUE-22: only the entries read process.env in src-main production code', () => {
    const readers = productionFiles('').filter((file) =>
      /\bprocess\s*(\.\s*env\b|\[\s*['"]env['"]\s*\])/.test(readFileSync(path.join(srcMain, file), 'utf8')),
    );
    expect(readers.sort()).toEqual([...ENTRIES].sort());
  });
});
