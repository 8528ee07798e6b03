// electron-builder `afterPack` hook (electron-builder.yml). The packaged app needs better-sqlite3's
// addon built for Electron's ABI, while the project's node_modules must keep the Node build that
// headless mode and the tests load — so electron-builder's in-place rebuild is off (npmRebuild:
// false) and this hook builds the addon in a scratch copy, then overwrites the one .node file inside
// the packaged app (it sits in app.asar.unpacked, see asarUnpack). The project's copy is never touched.
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const NATIVE_MODULE = 'better-sqlite3';
export const ADDON = path.join('build', 'Release', 'better_sqlite3.node');

/** builder-util's `Arch` enum, by value. */
const ARCH_NAMES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];

/** The arch name @electron/rebuild and prebuild-install expect, from electron-builder's enum value. */
export function archName(arch) {
  const name = ARCH_NAMES[arch];
  if (name === undefined) throw new Error(`after-pack: unknown arch ${String(arch)}`);
  return name;
}

/** Node's platform name for electron-builder's (`mas`, the Mac App Store build, is darwin). */
export function nodePlatform(electronPlatformName) {
  return electronPlatformName === 'mas' ? 'darwin' : electronPlatformName;
}

/** Where the packaged app keeps the unpacked copy of the native module. */
export function unpackedModuleDir(resourcesDir) {
  return path.join(resourcesDir, 'app.asar.unpacked', 'node_modules', NATIVE_MODULE);
}

/** The scratch folder the addon is built in: under the project's node_modules so @electron/rebuild finds prebuild-install. */
export function scratchDir(projectDir, platform, arch) {
  return path.join(projectDir, 'node_modules', '.cache', 'leeway-native', `${platform}-${arch}`);
}

/** The executable format a platform loads: a wrong-OS addon must fail the build, not the app's first start. */
export function expectedFormat(platform) {
  if (platform === 'win32') return 'pe';
  if (platform === 'darwin') return 'mach-o';
  return 'elf';
}

/** The format of a native binary from its first bytes, or null when it is none of the three. */
export function binaryFormat(head) {
  const hex = Buffer.from(head.subarray(0, 4)).toString('hex');
  if (hex === '7f454c46') return 'elf';
  if (['cffaedfe', 'cefaedfe', 'cafebabe', 'feedfacf', 'feedface'].includes(hex)) return 'mach-o';
  if (hex.startsWith('4d5a')) return 'pe';
  return null;
}

/** Builds the addon for Electron in a scratch copy of the project's module; returns the .node path. */
async function buildForElectron({ projectDir, electronVersion, platform, arch }) {
  const work = scratchDir(projectDir, platform, arch);
  rmSync(work, { recursive: true, force: true });
  const source = path.join(projectDir, 'node_modules', NATIVE_MODULE);
  const copy = path.join(work, 'node_modules', NATIVE_MODULE);
  // Sources only: the Node build in build/ must not be mistaken for the Electron one.
  cpSync(source, copy, {
    recursive: true,
    filter: (file) => path.relative(source, file).split(path.sep)[0] !== 'build',
  });
  const { version } = JSON.parse(readFileSync(path.join(source, 'package.json'), 'utf8'));
  writeFileSync(
    path.join(work, 'package.json'),
    JSON.stringify({
      name: 'leeway-native-build',
      version: '0.0.0',
      private: true,
      dependencies: { [NATIVE_MODULE]: version },
    }),
  );
  const { rebuild } = await import('@electron/rebuild');
  // A prebuilt Electron binary when one is published (any target OS), else node-gyp (host OS only).
  await rebuild({
    buildPath: work,
    projectRootPath: work,
    electronVersion,
    platform,
    arch,
    onlyModules: [NATIVE_MODULE],
    force: true,
  });
  return { built: path.join(copy, ADDON), work };
}

/** The hook: electron-builder calls it once per platform and arch, before signing. */
export async function afterPack(context) {
  const platform = nodePlatform(context.electronPlatformName);
  const arch = archName(context.arch);
  // A universal macOS app is merged from the x64 and arm64 packs, each already handled.
  if (arch === 'universal') return;
  const electronVersion = context.packager.info.framework.version;
  const target = path.join(unpackedModuleDir(context.packager.getResourcesDir(context.appOutDir)), ADDON);
  if (!existsSync(target)) {
    throw new Error(
      `after-pack: ${target} is missing; asarUnpack must keep node_modules/${NATIVE_MODULE} outside the asar`,
    );
  }
  const { built, work } = await buildForElectron({
    projectDir: context.packager.info.projectDir,
    electronVersion,
    platform,
    arch,
  });
  try {
    const format = binaryFormat(readFileSync(built));
    if (format !== expectedFormat(platform)) {
      throw new Error(
        `after-pack: the ${NATIVE_MODULE} addon built for ${platform}-${arch} is ${format ?? 'not a native binary'}`,
      );
    }
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(built, target);
    console.log(
      `  • ${NATIVE_MODULE} rebuilt for Electron ${electronVersion} (${platform}-${arch}) into the packaged app`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
