import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const root = resolve(__dirname, '..');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Runs the headless entry from source as a user would, collecting its output. */
function runHeadless(args: string[], untilLine?: RegExp, onLine?: (stdout: string) => void, given?: string) {
  const dataDir = given ?? mkdtempSync(join(tmpdir(), 'leeway-cli-'));
  if (given === undefined) dirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src-main/headless.ts', '--data-dir', dataDir, ...args], {
    cwd: root,
    env: { ...process.env, LEEWAY_PORT: undefined, LEEWAY_ADMIN_TOKEN: undefined },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string; dataDir: string }>((done) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.stdout.on('data', () => {
      onLine?.(stdout);
      if (untilLine && untilLine.test(stdout)) child.kill('SIGTERM');
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr, dataDir });
    });
  });
}

describe('headless entry', () => {
  it('PROD-2: a port in use is a one-line error naming the port and --port, never a stack trace', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as { port: number }).port;
    try {
      const run = await runHeadless(['--port', String(port)]);
      expect(run.code).toBe(1);
      expect(run.stderr.trim()).toBe(
        `Leeway: Port ${port} on 127.0.0.1 is already in use; choose another with --port <port> (0 picks a free one)`,
      );
    } finally {
      await new Promise<void>((r) => blocker.close(() => r()));
    }
  });

  it('PROD-1: prints the proxy URL and the dashboard URL with its token, then stops cleanly on SIGTERM', async () => {
    const run = await runHeadless(['--port', '0'], /Dashboard: .*\?token=/);
    expect(run.stdout).toMatch(/running headless/);
    expect(run.stdout).toMatch(/Proxy: +http:\/\/127\.0\.0\.1:\d+/);
    expect(run.stdout).toMatch(/Dashboard: http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{16,}/);
    expect(run.code).toBe(0);
  });

  it('PROD-2: a non-loopback host without --allow-remote is refused', async () => {
    const run = await runHeadless(['--host', '0.0.0.0']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--allow-remote');
  });

  it('PROD-3: a malformed config file exits non-zero listing every problem', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'leeway-cfg-'));
    dirs.push(dir);
    const file = join(dir, 'c.json');
    writeFileSync(
      file,
      JSON.stringify({
        connections: [
          { name: 'x', kind: 'bogus' },
          { name: 'y', kind: 'anthropic', priority: -4 },
        ],
      }),
    );
    const run = await runHeadless(['--port', '0', '--config', file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('connections.0.kind');
    expect(run.stderr).toContain('connections.1.priority');
  });

  it('ISSUE-8: a second instance on the same data dir exits with one line naming the dir and the running port', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'leeway-cli-'));
    dirs.push(dataDir);
    let second: Promise<{ code: number | null; stderr: string }> | null = null;
    let firstPort = '';
    const first = runHeadless(
      ['--port', '0'],
      undefined,
      (stdout) => {
        const port = /Proxy: +http:\/\/127\.0\.0\.1:(\d+)/.exec(stdout)?.[1];
        if (port === undefined || second !== null) return;
        firstPort = port;
        second = runHeadless(['--port', '0'], undefined, undefined, dataDir);
      },
      dataDir,
    );
    const until = Date.now() + 15_000;
    while (second === null && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    if (second === null) throw new Error('the first instance never started');
    const refused = await (second as Promise<{ code: number | null; stderr: string }>);
    expect(refused.code).toBe(1);
    const lines = refused.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(dataDir);
    expect(lines[0]).toContain(`port ${firstPort}`);
    expect(JSON.parse(readFileSync(join(dataDir, 'leeway.lock'), 'utf8'))).toMatchObject({ port: Number(firstPort) });
    // The first runs on; SIGTERM stops it cleanly and frees the lock.
    process.kill(Number(JSON.parse(readFileSync(join(dataDir, 'leeway.lock'), 'utf8')).pid), 'SIGTERM');
    expect((await first).code).toBe(0);
    expect(existsSync(join(dataDir, 'leeway.lock'))).toBe(false);
  });
});
