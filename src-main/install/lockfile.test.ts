import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * Issue 21 §18: `npm install` on a fresh clone must leave package-lock.json as it is, and print no
 * EBADENGINE warning on the oldest Node the project supports (package.json `engines`, the README's
 * "Node ≥ 20.19") — except for the Electron toolchain, which needs Node ≥ 22.12 (see ELECTRON_TOOLCHAIN).
 * npm decides both from data, so the test reads the same data with npm's own semver check.
 */
const require = createRequire(import.meta.url);
// semver (npm's own range check) ships no types; these are the calls the test needs. It is in
// node_modules through prebuild-install, app-builder-lib and others.
const semver = require('semver') as {
  satisfies(version: string, range: string, options: { includePrerelease: boolean }): boolean;
  minVersion(range: string): { version: string } | null;
  validRange(range: string): string | null;
};

const root = join(import.meta.dirname, '..', '..');

interface Manifest {
  name?: string;
  version?: string;
  license?: string;
  bin?: string | Record<string, string>;
  engines?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}
interface LockedPackage extends Manifest {
  optional?: boolean;
}

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
  lockfileVersion: number;
  packages: Record<string, LockedPackage>;
};

/**
 * The packages allowed to want a newer Node than `engines` says, and why. Every maintained Electron
 * (43–45) and its download and rebuild helpers want Node ≥ 22.12. Electron lines that still admit
 * Node 20 (≤ 41.7.1) are past Electron's support window and download their binary in an install
 * script, so `npm install` fails outright where GitHub cannot be reached (Electron ≥ 40.10.3 fetches
 * it on first start, which `npm start` handles); electron-builder releases whose rebuild admits Node 20
 * (≤ 26.0.20) take node-gyp from a git URL. A package appearing here or leaving must be a decision.
 */
const ELECTRON_TOOLCHAIN = new Map([
  ['node_modules/electron', 'electron ≥ 40.10.3 wants Node ≥ 22.12'],
  ['node_modules/@electron/get', "electron's binary download"],
  ['node_modules/@electron-internal/extract-zip', "electron's binary download"],
  ['node_modules/@electron/rebuild', "electron-builder's native rebuild (4.x)"],
  ['node_modules/@electron/rebuild/node_modules/node-abi', '@electron/rebuild 4.x'],
]);

/** package.json's `bin` as npm writes it into the lockfile's root entry. */
function binOf(manifest: Manifest): Record<string, string> | undefined {
  if (typeof manifest.bin !== 'string') return manifest.bin;
  return { [manifest.name ?? '']: manifest.bin };
}

describe('package-lock.json (issue 21 §18)', () => {
  it('issue 21 §18: its root entry says what package.json says, so npm install on a fresh clone rewrites nothing', () => {
    expect(lock.lockfileVersion).toBe(3);
    const rootEntry = lock.packages[''];
    expect(rootEntry).toEqual(
      JSON.parse(
        JSON.stringify({
          name: pkg.name,
          version: pkg.version,
          license: pkg.license,
          bin: binOf(pkg),
          engines: pkg.engines,
          dependencies: pkg.dependencies,
          devDependencies: pkg.devDependencies,
          optionalDependencies: pkg.optionalDependencies,
          peerDependencies: pkg.peerDependencies,
        }),
      ),
    );
  });

  it('issue 21 §18: every direct dependency is locked at a version its declared range accepts', () => {
    const declared = { ...pkg.dependencies, ...pkg.devDependencies, ...pkg.optionalDependencies };
    const wrong = Object.entries(declared).flatMap(([name, range]) => {
      const locked = lock.packages[`node_modules/${name}`]?.version;
      return locked !== undefined && semver.satisfies(locked, range, { includePrerelease: true })
        ? []
        : [`${name}: ${range} declared, ${locked ?? 'nothing'} locked`];
    });
    expect(wrong).toEqual([]);
  });

  it('issue 21 §18: every installed package admits the oldest supported Node (engines), the Electron toolchain excepted', () => {
    const range = pkg.engines?.node ?? '';
    const oldest = semver.minVersion(range)?.version;
    expect(oldest).toBe('20.19.0');
    const refusing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      const wants = entry.engines?.node;
      // npm skips an optional package whose engines do not fit, silently (it never warns about one).
      if (path === '' || entry.optional === true || wants === undefined) continue;
      expect(semver.validRange(wants), `${path}: engines.node "${wants}"`).not.toBeNull();
      if (!semver.satisfies(oldest ?? '', wants, { includePrerelease: true })) refusing.push(path);
    }
    expect(refusing.filter((path) => !ELECTRON_TOOLCHAIN.has(path))).toEqual([]);
    // An exception that no longer refuses (or left the tree) is stale: drop it from the list.
    expect([...ELECTRON_TOOLCHAIN.keys()].filter((path) => !refusing.includes(path))).toEqual([]);
  });

  it('issue 21 §18: on the Node the README names (22 LTS, ≥ 22.13: eslint 10 wants it) every installed package fits: npm install is quiet there', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const named = /Use Node\.js 22 LTS \(≥ (22\.\d+)\)/.exec(readme)?.[1];
    expect(named, 'the README names the Node to use').toBeDefined();
    const version = `${named ?? ''}.0`;
    const refusing = Object.entries(lock.packages).flatMap(([path, entry]) => {
      const wants = entry.engines?.node;
      if (path === '' || entry.optional === true || wants === undefined) return [];
      return semver.satisfies(version, wants, { includePrerelease: true }) ? [] : [`${path} wants ${wants}`];
    });
    expect(refusing).toEqual([]);
  });
});
