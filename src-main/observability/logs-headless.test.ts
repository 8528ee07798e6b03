import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { LOGS_DIR } from './observability';
import { LOG_FILE_NAME } from './rotating-file';

const root = resolve(__dirname, '../..');
const LOCAL_KEY = 'lw-logs-test-local-key-0123456789';
const ADMIN_TOKEN = 'logs-test-admin-token-abcdefghijkl';
const SECRETS = {
  primary: 'sk-ant-secret-primary-7777',
  backup: 'sk-ant-secret-backup-8888',
  access: 'sk-ant-oat01-never-logged-access',
  refresh: 'sk-ant-ort01-never-logged-refresh',
};

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The real headless entry, as a user starts it: a config file with secrets, output captured. */
function startHeadless(dataDir: string, config: string, env: Record<string, string> = {}) {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    ['--import', 'tsx', 'src-main/headless.ts', '--data-dir', dataDir, '--port', '0', '--config', config],
    {
      cwd: root,
      env: {
        ...process.env,
        LEEWAY_PORT: undefined,
        LEEWAY_ADMIN_TOKEN: ADMIN_TOKEN,
        // Startup model discovery asks each upstream GET /v1/models; arriving after a test scripted a
        // 429 it would take that 429 itself, and the request the test makes would never fail over.
        LEEWAY_MODEL_DISCOVERY: '0',
        ...env,
      },
    },
  );
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (c: Buffer) => (out.stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out.stderr += c.toString()));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  cleanups.push(() => {
    clearTimeout(timer);
    child.kill('SIGKILL');
  });
  const until = async (pattern: RegExp, withinMs = 15_000): Promise<RegExpExecArray> => {
    const deadline = Date.now() + withinMs;
    for (;;) {
      const match = pattern.exec(out.stdout);
      if (match) return match;
      if (child.exitCode !== null) throw new Error(`headless exited: ${out.stdout}\n${out.stderr}`);
      // Said with what the terminal did show, rather than as the test's own timeout.
      if (Date.now() > deadline) throw new Error(`no ${String(pattern)} within ${withinMs} ms in:\n${out.stdout}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  return { out, until, stop: async () => (child.kill('SIGTERM'), exited) };
}

async function setUp(env: Record<string, string> = {}) {
  const first = await startFakeUpstream({ format: 'anthropic', name: 'first' });
  const second = await startFakeUpstream({ format: 'anthropic', name: 'second' });
  const upstreams: FakeUpstream[] = [first, second];
  cleanups.push(() => Promise.all(upstreams.map((u) => u.close())));
  const dataDir = mkdtempSync(join(tmpdir(), 'leeway-logs-it-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const config = join(dataDir, 'config.json');
  writeFileSync(
    config,
    JSON.stringify({
      connections: [
        { name: 'primary', kind: 'anthropic', baseUrl: first.url, apiKey: SECRETS.primary, priority: 1 },
        { name: 'backup', kind: 'anthropic', baseUrl: second.url, apiKey: SECRETS.backup, priority: 2 },
        {
          name: 'max-1',
          kind: 'claude-oauth',
          baseUrl: second.url,
          accessToken: SECRETS.access,
          refreshToken: SECRETS.refresh,
          enabled: false,
        },
      ],
      keys: [{ name: 'dev', key: LOCAL_KEY }],
      combos: [
        {
          name: 'main',
          targets: [
            { connection: 'primary', model: 'claude-haiku-4-5' },
            { connection: 'backup', model: 'claude-haiku-4-5' },
          ],
        },
      ],
    }),
  );
  const headless = startHeadless(dataDir, config, env);
  const proxy = (await headless.until(/Proxy: +(http:\S+)/))[1] ?? '';
  const ask = () =>
    fetch(`${proxy}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': LOCAL_KEY, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'main', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
    });
  const fileText = () => readFileSync(join(dataDir, LOGS_DIR, LOG_FILE_NAME), 'utf8');
  return { first, second, headless, ask, fileText };
}

// Each test starts the real entry through tsx: a few seconds on a busy machine.
describe('logs of the headless entry', { timeout: 30_000 }, () => {
  it('ISSUE-13: after a failover the terminal and the log file show both attempts, and no configured secret appears', async () => {
    const { first, headless, ask, fileText } = await setUp();
    // The upstream quotes the key it was sent into its error, as some gateways do.
    first.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '30' }, echoKey: true });
    const res = await ask();
    expect(res.status).toBe(200);
    expect(res.headers.get('x-leeway-failover')).toBe('primary=429');
    await headless.until(/main → backup/);
    await headless.until(/cooldown set: primary/);
    expect(await headless.stop()).toBe(0);

    const line = headless.out.stdout.split('\n').find((l) => l.includes('main → backup')) ?? '';
    expect(line).toMatch(/^\d\d:\d\d:\d\d\.\d{3} dev {2}main → backup {2}200 {2}\d+ ms/);
    expect(line).toContain('failover primary 429');
    expect(headless.out.stdout).toMatch(/WARN cooldown set: primary for 30 s/);

    const records = fileText()
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const request = records.find((r) => r.event === 'request');
    expect(request).toMatchObject({
      level: 30,
      keyName: 'dev',
      model: 'main',
      connection: 'backup',
      status: 200,
      failover: [{ connection: 'primary', status: 429 }],
    });
    const cooldown = records.find((r) => r.event === 'cooldown' && r.connection === 'primary');
    // The upstream's error quoted the key it was sent; the file keeps the words, not the key.
    expect(cooldown?.lastError).toEqual(expect.stringContaining('[redacted]'));

    const file = fileText();
    for (const secret of [...Object.values(SECRETS), LOCAL_KEY]) {
      expect(headless.out.stdout, secret).not.toContain(secret);
      expect(headless.out.stderr, secret).not.toContain(secret);
      expect(file, secret).not.toContain(secret);
    }
    // The terminal prints the dashboard link with its token once, by design; the file never holds it.
    expect(file).not.toContain(ADMIN_TOKEN);
  });

  it("issue 21 §17: a valid config's one-line summary is an info line, not a warning (hidden at LEEWAY_LOG_LEVEL=warn)", async () => {
    const { headless } = await setUp();
    const line = (await headless.until(/^.*config: .*$/m))[0];
    expect(line).toMatch(/^\d\d:\d\d:\d\d\.\d{3} config: 3 connections, 1 key, 1 combo upserted from \S+config\.json$/);
    expect(await headless.stop()).toBe(0);

    const quiet = await setUp({ LEEWAY_LOG_LEVEL: 'warn' });
    await quiet.headless.until(/Dashboard: /);
    expect(quiet.headless.out.stdout).not.toContain('config:');
    expect(await quiet.headless.stop()).toBe(0);
  });

  it('ISSUE-13: LEEWAY_LOG_LEVEL=warn hides the request lines in the terminal and the file, state changes stay', async () => {
    const { first, headless, ask, fileText } = await setUp({ LEEWAY_LOG_LEVEL: 'warn' });
    first.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '30' } });
    expect((await ask()).status).toBe(200);
    expect((await ask()).status).toBe(200);
    await headless.until(/cooldown set: primary/);
    expect(await headless.stop()).toBe(0);
    expect(headless.out.stdout).toContain('(level warn;');
    expect(headless.out.stdout).not.toContain('main → backup');
    expect(fileText()).not.toContain('"event":"request"');
    expect(fileText()).toContain('cooldown set: primary');
  });
});
