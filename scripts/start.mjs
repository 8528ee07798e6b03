// `npm start [-- flags]`: build if needed, then the Electron app — or, when Electron cannot run here
// (or --headless is given), the headless proxy + web dashboard in plain Node. Flags pass through.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildIfStale, root } from './lib/build.mjs';
import { NODE_RUNTIME_FLAGS } from '../bin/runtime-flags.mjs';
import { exitCodeOf, spawnSupervised } from '../bin/supervise.mjs';

const args = process.argv.slice(2);
const EARLY_EXIT_MS = 2000;
/** Exit code of the app's own argument errors: the headless entry would reject the same flags. */
const USAGE_ERROR = 2;

/** Where the electron package expects its binary, or null when the package is not installed. */
function electronLocation() {
  let dir;
  try {
    dir = path.dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return null;
  }
  const pathFile = path.join(dir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : null;
  const distDir = process.env.ELECTRON_OVERRIDE_DIST_PATH || path.join(dir, 'dist');
  return { dir, binary: relative ? path.join(distDir, relative) : null };
}

/**
 * Electron ≥ 40 fetches its binary on first use rather than at npm install. Try that once (bounded),
 * unless the user opted out; where the network is closed it fails fast and we go headless.
 */
function downloadElectron(dir) {
  if (process.env.ELECTRON_SKIP_BINARY_DOWNLOAD) return false;
  console.log('Leeway: downloading the Electron binary (first start only)…');
  const result = spawnSync(process.execPath, [path.join(dir, 'install.js')], { stdio: 'inherit', timeout: 180_000 });
  return result.status === 0;
}

/** Path of the Electron binary, or why there is none. */
function findElectron() {
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { reason: 'no display: DISPLAY and WAYLAND_DISPLAY are unset' };
  }
  let location = electronLocation();
  if (!location) return { reason: 'the electron package is not installed' };
  if (!location.binary || !existsSync(location.binary)) {
    if (!downloadElectron(location.dir)) return { reason: 'binary not installed and could not be downloaded' };
    location = electronLocation();
    if (!location?.binary || !existsSync(location.binary)) return { reason: 'binary not installed' };
  }
  return { binary: location.binary };
}

function exitLike(code, signal) {
  process.exit(exitCodeOf(code, signal));
}

function runHeadless(why) {
  if (why) console.log(`Leeway: ${why} — starting headless proxy + web dashboard.`);
  // Each stop signal reaches the child once (bin/supervise.mjs); it drains and exits 0 on the first.
  const child = spawnSupervised(
    process.execPath,
    [...NODE_RUNTIME_FLAGS, path.join(root, 'out/main/headless.js'), ...args],
    {
      cwd: root,
      lifeline: true,
    },
  );
  child.on('exit', exitLike);
}

function runElectron(binary) {
  console.log('Leeway: starting the Electron app (use --headless for the proxy + web dashboard only).');
  const startedAt = Date.now();
  let fellBack = false;
  const fallBack = (detail) => {
    if (fellBack) return;
    fellBack = true;
    runHeadless(`Electron could not start (${detail})`);
  };
  const child = spawnSupervised(binary, ['.', ...args], { cwd: root });
  child.on('error', (error) => fallBack(error.message));
  child.on('exit', (code, signal) => {
    if (fellBack) return;
    const early = Date.now() - startedAt < EARLY_EXIT_MS;
    const failed =
      (code !== null && code !== 0 && code !== USAGE_ERROR) ||
      (signal !== null && signal !== 'SIGINT' && signal !== 'SIGTERM');
    if (early && failed) fallBack(code !== null ? `exited with code ${code}` : `killed by ${signal}`);
    else exitLike(code, signal);
  });
}

if (!buildIfStale()) {
  console.error('Leeway: the build failed; fix the errors above and run npm start again.');
  process.exit(1);
}

if (args.includes('--headless')) runHeadless('--headless given');
else if (args.includes('--help') || args.includes('-h')) runHeadless(null);
else {
  const electron = findElectron();
  if (electron.binary) runElectron(electron.binary);
  else runHeadless(`Electron is not available (${electron.reason})`);
}
