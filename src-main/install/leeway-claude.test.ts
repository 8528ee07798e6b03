import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runningOn } from '../../bin/instance.mjs';
import { findClaudeBinary } from '../testing/clients/claude-code-binary';
import { reservePort, startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';

/*
 * `leeway start`, `leeway claude -p …` and `leeway stop` as a user runs them, from the source
 * (LEEWAY_FROM_SOURCE=1: the unit run does not build out/), with the real Claude Code binary
 * against a fake Anthropic upstream on loopback (issue 13 §7).
 */
const root = join(import.meta.dirname, '..', '..');
const BIN = join(root, 'bin', 'leeway.mjs');
const ANSWER = 'hello from the fake upstream';
const binary = findClaudeBinary();
if (!binary) console.warn('Skipping leeway claude: the Claude Code native binary is not installed');

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `leeway …args` with a throwaway HOME and none of the caller's Leeway or proxy variables. */
function leeway(args: string[], env: Record<string, string>, until?: RegExp): Promise<Run> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: env.HOME,
    env: {
      PATH: '/usr/local/bin:/usr/bin:/bin',
      TMPDIR: tmpdir(),
      LANG: 'C.UTF-8',
      LEEWAY_FROM_SOURCE: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      ...env,
    },
  });
  child.stdin.end();
  let stdout = '';
  let stderr = '';
  let signalled = false;
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
    // Once: a second SIGTERM means "exit without waiting" to Leeway.
    if (!signalled && until?.test(stdout)) {
      signalled = true;
      child.kill('SIGTERM');
    }
  });
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

/** A home, a data dir, a config naming the fake upstream, and the variables that point at them. */
async function setup(upstream: FakeUpstream): Promise<{ env: Record<string, string>; dataDir: string }> {
  const base = mkdtempSync(join(tmpdir(), 'leeway-bin-'));
  const home = join(base, 'home');
  const dataDir = join(base, 'data');
  mkdirSync(home);
  const config = join(base, 'leeway.json');
  // The connection key comes from the environment, as a user keeps secrets out of the file.
  writeFileSync(
    config,
    JSON.stringify({ connections: [{ name: 'a1', kind: 'anthropic', baseUrl: upstream.url, apiKey: '${A1_KEY}' }] }),
  );
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    LEEWAY_DATA_DIR: dataDir,
    LEEWAY_PORT: String(await reservePort()),
    LEEWAY_CONFIG: config,
    A1_KEY: 'sk-ant-secret-a1-0000',
  };
  cleanups.push(() => {
    // Whatever a failed assertion left running on this data dir, by its own pid.
    const running = runningOn(dataDir);
    if (running) process.kill(running.pid, 'SIGKILL');
    rmSync(base, { recursive: true, force: true });
  });
  return { env, dataDir };
}

async function upstream(): Promise<FakeUpstream> {
  const up = await startFakeUpstream({ format: 'anthropic', name: 'cc' });
  up.setDefault({ kind: 'ok', text: ANSWER });
  cleanups.push(() => up.close());
  return up;
}

describe('leeway start', () => {
  it('PROD-1: runs the headless proxy in the foreground with the given flags, and stops on SIGTERM', async () => {
    const { env, dataDir } = await setup(await upstream());
    const run = await leeway(['start', '--port', '0', '--log-level', 'warn'], env, /Dashboard: /);
    expect(run.stdout).toMatch(/running headless \(data: .*\)/);
    expect(run.stdout).toMatch(/Proxy: +http:\/\/127\.0\.0\.1:\d+/);
    expect(run.code).toBe(0);
    expect(existsSync(join(dataDir, 'leeway.sqlite'))).toBe(true);
  }, 60_000);
});

describe('leeway claude', () => {
  it.skipIf(!binary)(
    'PROD-10 (skipped without the Claude Code native binary): starts Leeway in the background, creates and keeps a local key, runs `claude -p` through it; the next run reuses both; stop ends it',
    async () => {
      const up = await upstream();
      const { env, dataDir } = await setup(up);
      // A real Anthropic key in the caller's environment must not reach Claude Code.
      const first = await leeway(['claude', '-p', 'say hi'], {
        ...env,
        ANTHROPIC_API_KEY: 'sk-ant-real-key-of-the-user',
      });
      expect(first.stdout).toContain(ANSWER);
      expect(first.code).toBe(0);
      expect(first.stderr).toMatch(/started in the background \(pid \d+, port \d+\)/);
      expect(first.stderr).toMatch(/created the local key "leeway-cli"/);
      const keyFile = join(dataDir, 'cli-key');
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      const key = readFileSync(keyFile, 'utf8').trim();
      expect(key.length).toBeGreaterThanOrEqual(12);

      const messages = up.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/v1/messages'));
      expect(messages.length).toBeGreaterThanOrEqual(1);
      for (const r of up.requests) {
        expect(r.headers['x-api-key']).toBe('sk-ant-secret-a1-0000');
        expect(JSON.stringify(r.headers)).not.toContain(key);
        expect(JSON.stringify(r.headers)).not.toContain('sk-ant-real-key-of-the-user');
      }
      const running = runningOn(dataDir);
      expect(running?.port).toBe(Number(env.LEEWAY_PORT));

      const second = await leeway(['claude', '-p', 'say hi again'], env);
      expect(second.stdout).toContain(ANSWER);
      expect(second.code).toBe(0);
      expect(second.stderr).toBe('');
      expect(runningOn(dataDir)?.pid).toBe(running?.pid);
      expect(readFileSync(keyFile, 'utf8').trim()).toBe(key);

      const stopped = await leeway(['stop'], env);
      expect(stopped).toMatchObject({ code: 0, stdout: `Leeway (pid ${running?.pid}) stopped (data: ${dataDir})\n` });
      expect(runningOn(dataDir)).toBeNull();
      expect(await leeway(['stop'], env)).toMatchObject({
        code: 0,
        stdout: `Leeway is not running on ${dataDir}\n`,
      });
    },
    180_000,
  );

  it.skipIf(!binary)(
    'issue 21 §12 (skipped without the Claude Code native binary): with no connection, says so on the terminal with the dashboard link before Claude Code starts, and Claude Code shows what to do',
    async () => {
      const { env, dataDir } = await setup(await upstream());
      const { LEEWAY_CONFIG: _none, ...withoutConfig } = env;
      const run = await leeway(['claude', '-p', 'say hi'], withoutConfig);
      const token = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
      const proxy = `http://127.0.0.1:${env.LEEWAY_PORT}`;
      expect(run.stderr).toContain(
        [
          'Leeway: no connection is set up yet, so Claude Code cannot get an answer. Add one in the dashboard:',
          `  ${proxy}/?token=${encodeURIComponent(token)}`,
          '  or name a config file when Leeway starts (--config FILE or LEEWAY_CONFIG; see leeway --help)',
        ].join('\n'),
      );
      // Claude Code's own output carries the proxy's refusal as written, not "an issue with the selected model".
      expect(run.stdout + run.stderr).toContain(
        `No connections are set up in Leeway: add one in the dashboard at ${proxy}/ or in a config file`,
      );
      expect(run.stdout + run.stderr).not.toContain('issue with the selected model');
      expect(run.code).not.toBe(0);
    },
    180_000,
  );

  it('PROD-10: a start that fails (a missing config variable) is reported with the reason, and nothing keeps running', async () => {
    const { env, dataDir } = await setup(await upstream());
    const { A1_KEY: _unset, ...withoutKey } = env;
    const failed = await leeway(['claude', '-p', 'say hi'], withoutKey);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('Leeway did not start');
    expect(failed.stderr).toContain('connections.0.apiKey: environment variable A1_KEY is not set');
    expect(runningOn(dataDir)).toBeNull();
  }, 120_000);
});
