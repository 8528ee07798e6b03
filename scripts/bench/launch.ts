/** Starting the proxies: which Leeway entry to run, free ports, and spawn-to-first-answer time. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { request as undiciRequest } from 'undici';
import type { Child } from './children';
import { LOCAL_KEY } from './shared';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((res, rej) => {
    server.once('error', rej);
    server.listen(0, '127.0.0.1', () => res());
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((res) => server.close(() => res()));
  return port;
}

/** Builds out/ when stale (same rule as npm start); returns how Leeway's headless entry is run. */
export async function headlessEntry(
  root: string,
  log: (line: string) => void,
): Promise<{ args: string[]; how: string }> {
  const override = process.env.BENCH_LEEWAY_ENTRY;
  if (override) {
    const file = resolve(override);
    if (!existsSync(file)) throw new Error(`BENCH_LEEWAY_ENTRY: ${file} does not exist`);
    return file.endsWith('.ts')
      ? { args: ['--import', 'tsx', file], how: `${file} via tsx (BENCH_LEEWAY_ENTRY)` }
      : { args: [file], how: `${file} (BENCH_LEEWAY_ENTRY)` };
  }
  const built = join(root, 'out/main/headless.js');
  try {
    const lib = (await import(pathToFileURL(join(root, 'scripts/lib/build.mjs')).href)) as {
      staleReason: () => string | null;
    };
    const reason = lib.staleReason();
    if (reason === null) return { args: [built], how: 'out/main/headless.js (built, up to date)' };
    // Same build as npm start / npm test, with its chatter on stderr so stdout stays the report.
    log(`building out/ (${reason})…`);
    const bin = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
    const result = spawnSync(process.execPath, [bin, 'build'], { cwd: root, stdio: ['ignore', 2, 2] });
    if (result.status === 0 && existsSync(built))
      return { args: [built], how: 'out/main/headless.js (rebuilt for this run)' };
  } catch (error) {
    log(`build check failed (${error instanceof Error ? error.message : String(error)})`);
  }
  if (existsSync(built)) return { args: [built], how: 'out/main/headless.js (build failed, may be STALE)' };
  return {
    args: ['--import', 'tsx', join(root, 'src-main/headless.ts')],
    how: 'src-main/headless.ts via tsx (no build: start time and RSS include the TypeScript loader)',
  };
}

export interface Started {
  child: Child;
  /** Spawn → first answer to GET /health (any status for the floor, 200 for Leeway). */
  answerMs: number;
}

/** Spawn-to-first-answer: polls GET /health on a fresh connection until it answers. */
export async function timeToAnswer(child: Child, origin: string, needOk: boolean): Promise<number> {
  const deadline = performance.now() + 10_000;
  for (;;) {
    try {
      const res = await undiciRequest(`${origin}/health`, { method: 'GET', headers: { 'x-api-key': LOCAL_KEY } });
      await res.body.dump();
      if (!needOk || res.statusCode === 200) return performance.now() - child.spawnedAt;
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) throw new Error(`${child.name}: /health never answered`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
