import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { answersHealth, runningOn } from '../../bin/instance.mjs';

/*
 * `leeway conformance` as a user runs it (issue 23 §4): the suite's flags pass through, and with
 * none naming a gateway it tests the Leeway running on the data directory, configured through its
 * admin API with the launcher's local key, and leaves that Leeway's setup as it was.
 */
const root = join(import.meta.dirname, '..', '..');
const BIN = join(root, 'bin', 'leeway.mjs');
const base = mkdtempSync(join(tmpdir(), 'leeway-conformance-bin-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(base, { recursive: true, force: true });
});

function env(dataDir: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: base,
    TMPDIR: tmpdir(),
    LANG: 'C.UTF-8',
    LEEWAY_FROM_SOURCE: '1',
    LEEWAY_DATA_DIR: dataDir,
  };
}

function leeway(args: string[], dataDir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: base, env: env(dataDir) });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

async function rpc(url: string, token: string, method: string): Promise<unknown> {
  const res = await fetch(`${url}/api/rpc/${method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  return ((await res.json()) as { value: unknown }).value;
}

describe('leeway conformance', () => {
  it('issue 23 §4: --help prints the usage of the suite itself', async () => {
    const run = await leeway(['conformance', '--help'], join(base, 'unused'));
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: npm run conformance -- (--url URL --key KEY [--admin-token T] | --self)');
  }, 30_000);

  it('issue 23 §4: with no gateway named and no Leeway running, says what to do', async () => {
    const dataDir = join(base, 'empty');
    const run = await leeway(['conformance'], dataDir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`no Leeway runs on ${dataDir}: start one (leeway start), or give --self`);
  }, 30_000);

  it('issue 23 §4: with no gateway named, tests the Leeway running on the data directory and takes its own setup away again', async () => {
    const dataDir = join(base, 'running');
    const started = leeway(['start', '--port', '0', '--log-level', 'warn'], dataDir);
    const deadline = Date.now() + 60_000;
    let port: number | null = null;
    while (port === null && Date.now() < deadline) {
      const running = runningOn(dataDir);
      if (running?.port && (await answersHealth(running.port))) port = running.port;
      else await new Promise((r) => setTimeout(r, 100));
    }
    expect(port).not.toBeNull();
    const url = `http://127.0.0.1:${port}`;

    const run = await leeway(['conformance'], dataDir);
    expect(run.stderr).toContain(`Configured the Leeway at ${url}`);
    expect(run.stdout).toContain(`Conformance of ${url}`);
    expect(run.stdout).toMatch(/\n\d+ pass, 0 fail, \d+ n-a in /);
    expect(run.code).toBe(0);
    // The key it used is the launcher's own (kept for the next run); the admin token never hit argv.
    expect(readFileSync(join(dataDir, 'cli-key'), 'utf8').trim().length).toBeGreaterThanOrEqual(12);
    const token = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
    expect(await rpc(url, token, 'connections.list')).toEqual([]);
    expect(await rpc(url, token, 'combos.list')).toEqual([]);

    // The start is the only child still running.
    for (const child of children) child.kill('SIGTERM');
    expect((await started).code).toBe(0);
  }, 120_000);
});
