import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ADDON,
  afterPack,
  archName,
  binaryFormat,
  expectedFormat,
  nodePlatform,
  scratchDir,
  unpackedModuleDir,
  type AfterPackContextLike,
} from '../../scripts/packaging/after-pack.mjs';

/*
 * The afterPack hook that gives the packaged app an Electron build of better-sqlite3 while the
 * project's node_modules keeps the Node build (issue 13 §7). @electron/rebuild is replaced by a fake
 * that "builds" a binary of the requested OS: the real one needs Electron's headers from the network.
 */
const rebuildCalls: Array<Record<string, unknown>> = [];
const ELF = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]);
const PE = Buffer.from([0x4d, 0x5a, 0x90, 0x00]);
vi.mock('@electron/rebuild', () => ({
  rebuild: (options: Record<string, unknown>) => {
    rebuildCalls.push(options);
    const moduleDir = join(String(options.buildPath), 'node_modules', 'better-sqlite3');
    // What the rebuild sees: the module's sources, never the project's Node build.
    if (existsSync(join(moduleDir, 'build'))) throw new Error('the scratch copy still holds a build/ folder');
    mkdirSync(join(moduleDir, 'build', 'Release'), { recursive: true });
    writeFileSync(
      join(moduleDir, ADDON),
      Buffer.concat([options.platform === 'linux' ? ELF : PE, Buffer.from(' electron build')]),
    );
    return Promise.resolve();
  },
}));

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  rebuildCalls.length = 0;
});

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** A project with a Node build of better-sqlite3, and an app packed from it (addon unpacked). */
function fixture(platformName = 'linux') {
  const projectDir = mkdtempSync(join(tmpdir(), 'leeway-pack-'));
  dirs.push(projectDir);
  const module = join(projectDir, 'node_modules', 'better-sqlite3');
  mkdirSync(join(module, 'build', 'Release'), { recursive: true });
  mkdirSync(join(module, 'src'), { recursive: true });
  writeFileSync(join(module, 'package.json'), JSON.stringify({ name: 'better-sqlite3', version: '12.11.1' }));
  writeFileSync(join(module, 'src', 'better_sqlite3.cpp'), '// source');
  writeFileSync(join(module, ADDON), Buffer.concat([ELF, Buffer.from(' node build')]));
  const appOutDir = join(projectDir, 'dist', 'linux-unpacked');
  const resourcesDir = join(appOutDir, 'resources');
  const packed = join(unpackedModuleDir(resourcesDir), ADDON);
  mkdirSync(dirname(packed), { recursive: true });
  writeFileSync(packed, Buffer.concat([ELF, Buffer.from(' node build')]));
  const context: AfterPackContextLike = {
    appOutDir,
    electronPlatformName: platformName,
    arch: 1,
    packager: {
      info: { projectDir, framework: { version: '45.5.0' } },
      getResourcesDir: (dir) => join(dir, 'resources'),
    },
  };
  return { projectDir, projectAddon: join(module, ADDON), packed, context };
}

describe('afterPack: the native addon for Electron', () => {
  it("PROD-1 PROD-3: the packaged app's addon is replaced by Electron's build; the project's Node build is untouched", async () => {
    const f = fixture();
    const before = sha(f.projectAddon);
    await afterPack(f.context);
    expect(readFileSync(f.packed).toString('latin1')).toContain('electron build');
    expect(sha(f.projectAddon)).toBe(before);
    expect(rebuildCalls).toEqual([
      expect.objectContaining({
        electronVersion: '45.5.0',
        platform: 'linux',
        arch: 'x64',
        onlyModules: ['better-sqlite3'],
        force: true,
        buildPath: scratchDir(f.projectDir, 'linux', 'x64'),
        projectRootPath: scratchDir(f.projectDir, 'linux', 'x64'),
      }),
    ]);
    // The scratch copy is gone; nothing else appeared in the project's node_modules.
    expect(existsSync(scratchDir(f.projectDir, 'linux', 'x64'))).toBe(false);
    expect(readdirSync(join(f.projectDir, 'node_modules')).sort()).toEqual(['.cache', 'better-sqlite3']);
  });

  it('PROD-1: an addon of the wrong OS fails the build instead of the first start', async () => {
    // The fake builds a PE file for anything but linux; asking for darwin must be caught.
    const f = fixture('darwin');
    await expect(afterPack(f.context)).rejects.toThrow(/built for darwin-x64 is pe/);
    expect(readFileSync(f.packed).toString('latin1')).toContain('node build');
  });

  it('PROD-1: a pack whose addon is not unpacked is an error naming asarUnpack', async () => {
    const f = fixture();
    rmSync(f.packed);
    await expect(afterPack(f.context)).rejects.toThrow(/asarUnpack/);
    expect(rebuildCalls).toEqual([]);
  });

  it('PROD-1: a universal macOS pack is skipped (its x64 and arm64 halves were handled)', async () => {
    const f = fixture('darwin');
    await afterPack({ ...f.context, arch: 4 });
    expect(rebuildCalls).toEqual([]);
  });

  it('PROD-1: arch, platform and binary formats are read the way electron-builder and the OS name them', () => {
    expect([0, 1, 2, 3, 4].map(archName)).toEqual(['ia32', 'x64', 'armv7l', 'arm64', 'universal']);
    expect(() => archName(9)).toThrow(/unknown arch/);
    expect(nodePlatform('mas')).toBe('darwin');
    expect(nodePlatform('win32')).toBe('win32');
    expect(['linux', 'darwin', 'win32'].map(expectedFormat)).toEqual(['elf', 'mach-o', 'pe']);
    expect(binaryFormat(ELF)).toBe('elf');
    expect(binaryFormat(Buffer.from([0xcf, 0xfa, 0xed, 0xfe]))).toBe('mach-o');
    expect(binaryFormat(PE)).toBe('pe');
    expect(binaryFormat(Buffer.from('#!/bin/sh'))).toBeNull();
  });
});
