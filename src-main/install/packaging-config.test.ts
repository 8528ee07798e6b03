import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Minimatch } from 'minimatch';
import { describe, expect, it } from 'vitest';

/*
 * `npm run dist -- --dir` cannot run here (Electron's binary cannot be fetched), so the packaging
 * config is tested as data: targets per OS, files, extra resources, asar unpack for the native addon,
 * no in-place rebuild, no publish (issue 13 §7). js-yaml comes with electron-builder; only this test uses it.
 */
const require = createRequire(import.meta.url);
// js-yaml ships no types; this is the one function the test needs.
const { load } = require('js-yaml') as { load(text: string): unknown };
/** electron-builder's own check of a config against its schema (what `electron-builder` runs first). */
const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  validateConfiguration(
    config: unknown,
    debugLogger: { isEnabled: boolean; add(key: string, value: unknown): void },
  ): Promise<void>;
};
const quietLogger = { isEnabled: false, add: () => undefined };
/** How electron-builder loads a hook named in the config. */
const { resolveFunction } = require('app-builder-lib/out/util/resolve') as {
  resolveFunction(type: string, executor: unknown, name: string, rootDir: string): Promise<unknown>;
};
const root = join(import.meta.dirname, '..', '..');
const config = load(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;

function section(name: string): Record<string, unknown> {
  const value = config[name];
  if (typeof value !== 'object' || value === null) throw new Error(`electron-builder.yml has no ${name} section`);
  return value as Record<string, unknown>;
}

/** electron-builder's node_modules filter: "**\/*" then every `!` pattern of `files`, last match wins. */
function packagedFromNodeModules(file: string): boolean {
  const patterns = ['**/*', ...(config.files as string[]).filter((p) => p.startsWith('!'))].map(
    (p) => new Minimatch(p, { dot: true }),
  );
  let match = false;
  for (const pattern of patterns) if (match === pattern.negate) match = pattern.match(file);
  return match;
}

describe('packaging config (electron-builder.yml)', () => {
  it("PROD-1: electron-builder's own schema accepts the file, and would refuse a misspelt option", async () => {
    await expect(validateConfiguration(config, quietLogger)).resolves.toBeUndefined();
    await expect(
      validateConfiguration({ ...config, mac: { ...section('mac'), targets: ['dmg'] } }, quietLogger),
    ).rejects.toThrow(/does not match the API schema/);
  });

  it('PROD-1: builds AppImage + deb on Linux, dmg + zip (what electron-updater downloads) on macOS, nsis on Windows', () => {
    expect(section('linux').target).toEqual(['AppImage', 'deb']);
    expect(section('mac').target).toEqual(['dmg', 'zip']);
    expect(section('win').target).toEqual(['nsis']);
    expect(config.productName).toBe(pkg.productName);
    // A deb without a maintainer is refused by electron-builder.
    expect(section('linux').maintainer).toEqual(expect.any(String));
  });

  it('PROD-1: packs the built app and package.json, ships migrations and tray icons as resources', () => {
    expect(config.files).toEqual(expect.arrayContaining(['out/**', 'package.json', '!**/*.map']));
    expect(config.extraResources).toEqual([
      { from: 'migrations', to: 'migrations', filter: ['**/*.sql'] },
      { from: 'build/tray', to: 'tray' },
    ]);
    expect(pkg.main).toBe('out/main/main.js');
  });

  it('PROD-3: better-sqlite3 stays outside the asar, its sources are left out, and its addon file is kept for the hook to replace', () => {
    expect(config.asarUnpack).toEqual(['node_modules/better-sqlite3/**']);
    const kept = ['lib/index.js', 'package.json', 'build/Release/better_sqlite3.node'];
    const dropped = [
      'deps/sqlite3/sqlite3.c',
      'src/better_sqlite3.cpp',
      'build/Release/obj.target/x/y.o',
      'build/Release/test_extension.node',
    ];
    for (const file of kept) expect(packagedFromNodeModules(`node_modules/better-sqlite3/${file}`), file).toBe(true);
    for (const file of dropped)
      expect(packagedFromNodeModules(`node_modules/better-sqlite3/${file}`), file).toBe(false);
    expect(packagedFromNodeModules('node_modules/undici/index.js')).toBe(true);
  });

  it('PROD-1: the native addon is rebuilt for Electron only in the packaging step, never in the project node_modules', async () => {
    // npmRebuild would rebuild ./node_modules in place and break headless mode and the tests.
    expect(config.npmRebuild).toBe(false);
    expect(config.afterPack).toBe('./scripts/packaging/after-pack.mjs');
    // electron-builder resolves the path from the project root and imports the named export.
    const cwd = process.cwd();
    process.chdir(root);
    try {
      const hook = await resolveFunction('module', config.afterPack, 'afterPack', root);
      expect(typeof hook === 'function' && hook.name).toBe('afterPack');
    } finally {
      process.chdir(cwd);
    }
    expect(config.beforeBuild).toBeUndefined();
    const scripts = pkg.scripts as Record<string, string>;
    expect(scripts.dist).toBe('electron-vite build && electron-builder');
    expect(JSON.stringify(scripts)).not.toMatch(/install-app-deps|electron-rebuild/);
  });

  it('PROD-1: no publish target, so no app-update.yml is written and the updater stays inert', () => {
    expect(config.publish).toBeUndefined();
    for (const os of ['linux', 'mac', 'win']) expect(section(os).publish, os).toBeUndefined();
    // electron-builder would infer a GitHub publish target from package.json's repository.
    expect(pkg.repository).toBeUndefined();
  });

  it('PROD-1: the app id, output folder and build resources are fixed', () => {
    expect(config.appId).toBe('dev.leeway.app');
    expect(config.directories).toEqual({ buildResources: 'build', output: 'dist' });
    for (const os of ['linux', 'mac', 'win']) expect(section(os).icon, os).toBe('build/icon.png');
    expect(section('mac').hardenedRuntime).toBe(true);
  });
});
