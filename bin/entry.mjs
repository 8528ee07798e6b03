// Where the headless entry is and how to run it: the build in out/ (rebuilt first in a source
// checkout when stale, like `npm start`), or the TypeScript source through tsx (LEEWAY_FROM_SOURCE=1).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_RUNTIME_FLAGS } from './runtime-flags.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export class LauncherError extends Error {}

/** Builds out/ when a source checkout changed since the last build; build output goes to stderr. */
async function buildIfStale() {
  const lib = path.join(root, 'scripts', 'lib', 'build.mjs');
  if (!existsSync(lib) || !existsSync(path.join(root, 'src-main'))) return;
  const { staleReason } = await import(lib);
  const reason = staleReason();
  if (reason === null) return;
  const vite = path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  if (!existsSync(vite)) return;
  console.error(`Leeway: building (${reason})…`);
  // stdout stays clean for the command's own output (e.g. leeway claude -p).
  const result = spawnSync(process.execPath, [vite, 'build'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (result.status !== 0) throw new LauncherError('the build failed; fix the errors above and run again');
}

/** The node arguments that run the headless entry, without the user's flags. */
export async function headlessArgs(env) {
  if (env.LEEWAY_FROM_SOURCE === '1') {
    const source = path.join(root, 'src-main', 'headless.ts');
    if (!existsSync(source)) throw new LauncherError(`LEEWAY_FROM_SOURCE=1 needs the sources (${source})`);
    // Resolved here, so the child may run in the user's directory (relative --config paths).
    return [...NODE_RUNTIME_FLAGS, '--import', import.meta.resolve('tsx'), source];
  }
  await buildIfStale();
  const built = path.join(root, 'out', 'main', 'headless.js');
  if (!existsSync(built)) throw new LauncherError(`${built} is missing: run npm run build in ${root}`);
  return [...NODE_RUNTIME_FLAGS, built];
}
