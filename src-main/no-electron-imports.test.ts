import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx)$/;

/**
 * Every way a module can name 'electron' (or 'electron/…'): static and type imports, re-exports,
 * side-effect imports, require() and dynamic import(), with either quote style.
 */
const ELECTRON_SPECIFIER = String.raw`['"\`]electron(?:\/[^'"\`]*)?['"\`]`;
const PATTERNS = [
  new RegExp(String.raw`\b(?:import|export)\s[^;]*?\bfrom\s*${ELECTRON_SPECIFIER}`, 's'),
  new RegExp(String.raw`\bimport\s*${ELECTRON_SPECIFIER}`),
  new RegExp(String.raw`\brequire\s*\(\s*${ELECTRON_SPECIFIER}\s*\)`),
  new RegExp(String.raw`\bimport\s*\(\s*${ELECTRON_SPECIFIER}\s*\)`),
];

/** Whether the source text pulls in Electron in any form. */
function importsElectron(text: string): boolean {
  return PATTERNS.some((pattern) => pattern.test(text));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return SOURCE.test(entry.name) ? [path] : [];
  });
}

describe('runtime boundaries', () => {
  // This file is left out: its examples below spell the very imports it hunts for.
  it('PROD-1: nothing in src-renderer, src-shared or src-main outside src-main/shell imports electron', () => {
    const shell = join(root, 'src-main', 'shell') + sep;
    const files = ['src-renderer', 'src-shared', 'src-main']
      .flatMap((dir) => sourceFiles(join(root, dir)))
      .filter((file) => !file.startsWith(shell) && file !== import.meta.filename);
    expect(files.length).toBeGreaterThan(50);
    const offenders = files
      .filter((file) => importsElectron(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(offenders).toEqual([]);
  });

  it('PROD-1: the scan recognises every import form and ignores look-alikes', () => {
    // Built from parts so this file itself never contains the import it describes (other scanners grep for it).
    const E = ['elec', 'tron'].join('');
    const hits = [
      `import { app } from '${E}';`,
      `import type { WebPreferences } from "${E}";`,
      `import {\n  app,\n  Tray,\n} from '${E}'`,
      `import '${E}';`,
      `export { ipcMain } from '${E}/main';`,
      `const { app } = require('${E}');`,
      `const e = require( "${E}" )`,
      `const e = await import('${E}');`,
      'const e = await import(`' + E + '/renderer`);',
    ];
    for (const text of hits) expect(importsElectron(text), text).toBe(true);
    const misses = [
      "import x from 'electron-vite';",
      "import { y } from './electron-menu';",
      '// talks to the core through the bridge, never electron',
      "const name = 'electron';",
    ];
    for (const text of misses) expect(importsElectron(text), text).toBe(false);
  });

  it('PROD-1: the shell itself does import electron, so the scan would see a leak', () => {
    const shellFiles = sourceFiles(join(root, 'src-main', 'shell'));
    expect(shellFiles.some((file) => importsElectron(readFileSync(file, 'utf8')))).toBe(true);
  });
});
