// Shared by start.mjs and test.mjs: rebuild out/ only when a source is newer than the oldest output.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const OUTPUTS = ['out/main/main.js', 'out/main/headless.js', 'out/preload/preload.cjs', 'out/renderer/index.html'];
const SOURCE_DIRS = ['src-main', 'src-shared', 'src-renderer', 'migrations'];
const SOURCE_FILES = ['electron.vite.config.ts'];

function newestMtime(dir) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (!/\.test\.tsx?$/.test(entry.name)) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** Why out/ must be rebuilt, or null when it is up to date. */
export function staleReason() {
  const missing = OUTPUTS.find((file) => !existsSync(path.join(root, file)));
  if (missing) return `${missing} is missing`;
  const oldestOutput = Math.min(...OUTPUTS.map((file) => statSync(path.join(root, file)).mtimeMs));
  const newestSource = Math.max(
    ...SOURCE_DIRS.map((dir) => newestMtime(path.join(root, dir))),
    ...SOURCE_FILES.map((file) => (existsSync(path.join(root, file)) ? statSync(path.join(root, file)).mtimeMs : 0)),
  );
  return newestSource > oldestOutput ? 'sources changed since the last build' : null;
}

/** Runs `electron-vite build` when out/ is missing or stale; returns false if the build failed. */
export function buildIfStale(log = (line) => console.log(line)) {
  const reason = staleReason();
  if (reason === null) return true;
  log(`Leeway: building (${reason})…`);
  const bin = path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  const result = spawnSync(process.execPath, [bin, 'build'], { cwd: root, stdio: 'inherit' });
  return result.status === 0;
}
