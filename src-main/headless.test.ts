import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
function runHeadless(args: string[], untilLine?: RegExp) {
  const dataDir = mkdtempSync(join(tmpdir(), 'headroom-cli-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src-main/headless.ts', '--data-dir', dataDir, ...args], {
    cwd: root,
    env: { ...process.env, HEADROOM_PORT: undefined, HEADROOM_ADMIN_TOKEN: undefined },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string; dataDir: string }>((done) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.stdout.on('data', () => {
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
      expect(run.stderr.trim()).toBe(`Headroom: Port ${port} on 127.0.0.1 is already in use; choose another with --port <port> (0 picks a free one)`);
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
    const dir = mkdtempSync(join(tmpdir(), 'headroom-cfg-'));
    dirs.push(dir);
    const file = join(dir, 'c.json');
    writeFileSync(file, JSON.stringify({ connections: [{ name: 'x', kind: 'bogus' }, { name: 'y', kind: 'anthropic', priority: -4 }] }));
    const run = await runHeadless(['--port', '0', '--config', file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('connections.0.kind');
    expect(run.stderr).toContain('connections.1.priority');
  });
});
