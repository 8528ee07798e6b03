// `npm run e2e [-- vitest args]`: build if needed, then only the e2e suite in Debian Chromium.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buildIfStale, root } from './lib/build.mjs';

const chromium = [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].filter(Boolean).find((p) => existsSync(p));
if (!chromium) {
  console.error('e2e: no Chromium found (install Debian chromium or set CHROMIUM_PATH)');
  process.exit(1);
}
if (!buildIfStale()) process.exit(1);
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
const result = spawnSync(
  process.execPath,
  [vitest, 'run', '--config', 'vitest.e2e.config.ts', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit', env: { ...process.env, CHROMIUM_PATH: chromium } },
);
process.exit(result.status ?? 1);
