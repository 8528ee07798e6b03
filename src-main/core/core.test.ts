import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from './core';
import { readEnv } from './env';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { openaiConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'leeway-core-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function core(dataDir: string, extra: Partial<Parameters<typeof createCore>[0]> = {}): Core {
  const c = createCore({
    dataDir,
    host: '127.0.0.1',
    port: 0,
    allowRemote: false,
    mode: 'headless',
    env: readEnv(process.env),
    log: () => {},
    ...extra,
  });
  cleanups.push(() => c.stop());
  return c;
}

describe('core start and stop', () => {
  it('PROD-2: a port already in use is one line naming the port and the flag', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => blocker.close(() => r())));
    const port = (blocker.address() as { port: number }).port;
    const result = await core(tempDir(), { port }).start();
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.message).toBe(
      `Port ${port} on 127.0.0.1 is already in use; choose another with --port <port> (0 picks a free one)`,
    );
    expect(result.error.message).not.toContain('\n');
  });

  it('PROD-3: keeps state in one WAL SQLite file and an admin token with mode 0600 in the data dir', async () => {
    const dir = tempDir();
    const started = await core(dir).start();
    expect(started.ok).toBe(true);
    expect(existsSync(join(dir, 'leeway.sqlite'))).toBe(true);
    expect(existsSync(join(dir, 'leeway.sqlite-wal'))).toBe(true);
    expect(statSync(join(dir, 'admin-token')).mode & 0o777).toBe(0o600);
    const token = readFileSync(join(dir, 'admin-token'), 'utf8').trim();
    if (started.ok) expect(started.value.dashboardUrl).toContain(`?token=${token}`);
  });

  it('PROD-3: an invalid config file refuses to start and writes nothing', async () => {
    const dir = tempDir();
    const file = join(dir, 'bad.json');
    writeFileSync(
      file,
      JSON.stringify({
        connections: [
          { name: 'good', kind: 'anthropic', apiKey: 'sk-ant-1234567890' },
          { name: 'bad', kind: 'openai-compatible', apiKey: 'x' },
        ],
      }),
    );
    const first = await core(dir, { configFile: file }).start();
    expect(first.ok).toBe(false);
    if (!first.ok) expect(first.error.message).toContain('connections.1.baseUrl: is required');
    const second = core(dir);
    await second.start();
    const list = await second.router.call('connections.list', undefined);
    expect(list).toEqual({ ok: true, value: [] });
  });

  it('PROD-3: config is upserted by name, so restarting with the same file changes nothing', async () => {
    const dir = tempDir();
    const file = join(dir, 'config.json');
    writeFileSync(
      file,
      JSON.stringify({
        connections: [{ name: 'a', kind: 'anthropic', apiKey: 'sk-ant-1234567890' }],
        keys: [{ name: 'k', key: 'lw-abcdefghijklmnop' }],
      }),
    );
    const first = core(dir, { configFile: file });
    await first.start();
    const before = await first.router.call('connections.list', undefined);
    await first.stop();
    const second = core(dir, { configFile: file });
    await second.start();
    const after = await second.router.call('connections.list', undefined);
    const strip = (r: typeof before) =>
      r.ok ? (r.value as { updatedAt: number }[]).map(({ updatedAt: _u, ...rest }) => rest) : r;
    expect(strip(after)).toEqual(strip(before));
    expect(after.ok && (after.value as unknown[]).length).toBe(1);
    const keys = await second.router.call('keys.list', undefined);
    expect(keys.ok && (keys.value as unknown[]).length).toBe(1);
  });

  it('PROD-8: the dashboard and admin API share the proxy port, and --admin-port splits them off', async () => {
    const shared = core(tempDir(), { adminToken: 'tok-0123456789abcdef' });
    const started = await shared.start();
    if (!started.ok) throw new Error(started.error.message);
    const rpc = await fetch(`${started.value.proxyUrl}/api/rpc/app.info`, {
      method: 'POST',
      headers: { authorization: 'Bearer tok-0123456789abcdef', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(rpc.status).toBe(200);

    const split = core(tempDir(), { adminToken: 'tok-0123456789abcdef', adminPort: 0 });
    const s = await split.start();
    if (!s.ok) throw new Error(s.error.message);
    expect(s.value.dashboardUrl.startsWith(s.value.proxyUrl)).toBe(false);
    const onProxy = await fetch(`${s.value.proxyUrl}/api/rpc/app.info`, {
      method: 'POST',
      headers: { authorization: 'Bearer tok-0123456789abcdef', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(onProxy.status).toBe(404);
    const adminOrigin = new URL(s.value.dashboardUrl).origin;
    const onAdmin = await fetch(`${adminOrigin}/api/rpc/app.info`, {
      method: 'POST',
      headers: { authorization: 'Bearer tok-0123456789abcdef', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(onAdmin.status).toBe(200);
    const noProxyThere = await fetch(`${adminOrigin}/v1/models`, {
      headers: { authorization: 'Bearer lw-anything-0000000' },
    });
    expect(noProxyThere.status).toBe(401);
  });
});

describe('what exists only while running (issue 22)', () => {
  it('the router refuses with storage_unavailable before the start and after the stop; the started value answers app.info', async () => {
    const c = core(tempDir());
    expect(await c.router.call('connections.list', undefined)).toMatchObject({
      ok: false,
      error: { code: 'storage_unavailable' },
    });
    expect(await c.router.call('no.such.method', undefined)).toMatchObject({
      ok: false,
      error: { code: 'unknown_method' },
    });
    const started = await c.start();
    if (!started.ok) throw new Error(started.error.message);
    expect(started.value.info()).toMatchObject({ proxyUrl: started.value.proxyUrl, paused: false, mode: 'headless' });
    expect(await c.router.call('app.setPaused', { paused: true })).toMatchObject({ ok: true });
    expect(started.value.info().paused).toBe(true);
    await c.stop();
    expect(await c.router.call('connections.list', undefined)).toMatchObject({
      ok: false,
      error: { code: 'storage_unavailable' },
    });
  });
});

describe('settings events', () => {
  it('LOCK-10: a resilience settings change is pushed to every subscriber with the settings in force', async () => {
    const c = core(tempDir());
    await c.start();
    const seen: unknown[] = [];
    c.events.subscribe((e) => {
      if (e.type === 'resilience.settingsChanged') seen.push(e.payload.settings);
    });
    const result = await c.router.call('resilience.updateSettings', { modelLockout: { enabled: true } });
    expect(result.ok).toBe(true);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ modelLockout: { enabled: true } });
    const refused = await c.router.call('resilience.updateSettings', { modelLockout: { enabled: 'yes' } });
    expect(refused.ok).toBe(false);
    expect(seen).toHaveLength(1);
  });
});

describe('base URLs', () => {
  let upstream: FakeUpstream;
  let h: RunningLeeway;
  afterEach(async () => {
    await h.stop();
    await upstream.close();
  });

  it('PROD-5: a path prefix in an OpenAI-compatible base URL is kept in front of /chat/completions', async () => {
    upstream = await startFakeUpstream({ format: 'openai' });
    h = await startLeeway({
      connections: [
        { ...openaiConnection('glm', upstream.url), baseUrl: `${upstream.url}/api/paas/v4`, models: ['glm-4.6'] },
      ],
    });
    await fetch(`${h.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'glm-4.6', messages: [] }),
    }).then((r) => r.text());
    expect(upstream.requests[0]?.path).toBe('/api/paas/v4/chat/completions');
  });

  it('PROD-5: connection/model and aliases pick the connection and rewrite the model sent upstream', async () => {
    upstream = await startFakeUpstream({ format: 'openai' });
    h = await startLeeway({
      connections: [
        {
          ...openaiConnection('router', upstream.url),
          models: ['anthropic/claude-3.5-sonnet'],
          modelAliases: { fast: 'openai/gpt-4o-mini' },
        },
      ],
    });
    const ask = (model: string) =>
      fetch(`${h.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model, messages: [] }),
      }).then((r) => r.status);
    expect(await ask('anthropic/claude-3.5-sonnet')).toBe(200);
    expect(await ask('router/some-other-model')).toBe(200);
    expect(await ask('fast')).toBe(200);
    expect(upstream.requests.map((r) => (r.json as { model: string }).model)).toEqual([
      'anthropic/claude-3.5-sonnet',
      'some-other-model',
      'openai/gpt-4o-mini',
    ]);
  });
});

/** POSIX permission bits are not enforced on Windows, where the profile ACL guards the folder. */
const posixIt = process.platform === 'win32' ? it.skip : it;

/** A pid that surely names no running process: a child that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  if (child.pid === undefined) throw new Error('could not spawn a child');
  return child.pid;
}

describe('data directory (issue 8)', () => {
  posixIt(
    'ISSUE-8 (POSIX modes; skipped on Windows): the data dir is 0700 and every file in it 0600 after start, tightening a pre-existing 0755/0644 dir',
    async () => {
      const dir = tempDir();
      chmodSync(dir, 0o755);
      writeFileSync(join(dir, 'notes.txt'), 'left by an older version', { mode: 0o644 });
      chmodSync(join(dir, 'notes.txt'), 0o644);
      const started = await core(dir).start();
      expect(started.ok).toBe(true);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      const files = readdirSync(dir);
      expect(files).toEqual(
        expect.arrayContaining([
          'leeway.sqlite',
          'leeway.sqlite-wal',
          'leeway.sqlite-shm',
          'admin-token',
          'secret.key',
          'leeway.lock',
          'notes.txt',
        ]),
      );
      // Files are 0600; folders (logs/, issue 13) are 0700.
      for (const name of files) {
        const st = statSync(join(dir, name));
        expect(`${name} ${(st.mode & 0o777).toString(8)}`).toBe(`${name} ${st.isDirectory() ? '700' : '600'}`);
      }
    },
  );

  posixIt(
    'ISSUE-8 (POSIX modes; skipped on Windows): a data dir Leeway creates is 0700 whatever the umask',
    async () => {
      const dir = join(tempDir(), 'nested', 'data');
      const previous = process.umask(0o022);
      try {
        expect((await core(dir).start()).ok).toBe(true);
      } finally {
        process.umask(previous);
      }
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      expect(statSync(join(dir, 'leeway.sqlite')).mode & 0o777).toBe(0o600);
    },
  );

  it('ISSUE-8: a second core on the same data dir is refused with one line naming the dir and the port; the first keeps working', async () => {
    const dir = tempDir();
    const first = core(dir, { adminToken: 'tok-0123456789abcdef' });
    const started = await first.start();
    if (!started.ok) throw new Error(started.error.message);
    const port = new URL(started.value.proxyUrl).port;
    const snapshot = () => readdirSync(dir).map((name) => [name, statSync(join(dir, name)).mtimeMs]);
    // The first core's log file is opened a moment after start: compare once its own writes settled.
    let before = snapshot();
    for (let settled = false; !settled;) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const now = snapshot();
      settled = JSON.stringify(now) === JSON.stringify(before);
      before = now;
    }

    const second = await core(dir).start();
    expect(second.ok).toBe(false);
    if (second.ok) return;
    expect(second.error.message).not.toContain('\n');
    expect(second.error.message).toContain(dir);
    expect(second.error.message).toContain(`port ${port}`);
    expect(snapshot()).toEqual(before);

    const rpc = await fetch(`${started.value.proxyUrl}/api/rpc/app.info`, {
      method: 'POST',
      headers: { authorization: 'Bearer tok-0123456789abcdef', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(rpc.status).toBe(200);
    expect(JSON.parse(readFileSync(join(dir, 'leeway.lock'), 'utf8'))).toMatchObject({
      pid: process.pid,
      port: Number(port),
    });
  });

  it('ISSUE-8: a lock left by a dead process (kill -9) is taken over, and removed on stop', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'leeway.lock'), JSON.stringify({ pid: deadPid(), port: 7431, startedAt: 1, id: 'gone' }));
    const c = core(dir);
    const started = await c.start();
    expect(started.ok).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'leeway.lock'), 'utf8'))).toMatchObject({ pid: process.pid });
    await c.stop();
    expect(existsSync(join(dir, 'leeway.lock'))).toBe(false);
  });

  it('ISSUE-8: a start refused for a bad config file or a port in use creates no data dir', async () => {
    const parent = tempDir();
    const file = join(parent, 'bad.json');
    writeFileSync(file, JSON.stringify({ connections: [{ name: 'x', kind: 'bogus' }] }));
    const badConfig = join(parent, 'data-bad-config');
    expect((await core(badConfig, { configFile: file }).start()).ok).toBe(false);
    expect(existsSync(badConfig)).toBe(false);

    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => blocker.close(() => r())));
    const port = (blocker.address() as { port: number }).port;
    const portInUse = join(parent, 'data-port-in-use');
    expect((await core(portInUse, { port }).start()).ok).toBe(false);
    expect(existsSync(portInUse)).toBe(false);
    expect((await core(portInUse, { port: 0, adminPort: port }).start()).ok).toBe(false);
    expect(existsSync(portInUse)).toBe(false);
  });

  it('ISSUE-8: deleting the data dir while running is noticed within seconds (log line, event) and nothing is written afterwards', async () => {
    const upstream = await startFakeUpstream({ format: 'openai' });
    cleanups.push(() => upstream.close());
    const h = await startLeeway(
      { connections: [openaiConnection('oa', upstream.url, { models: ['gpt-4o'] })] },
      { dataDir: tempDir() },
    );
    cleanups.push(() => h.stop());
    const lost: { dataDir: string; message: string }[] = [];
    h.core.events.subscribe((e) => {
      if (e.type === 'storage.lost') lost.push(e.payload);
    });
    const ask = () =>
      fetch(`${h.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o', messages: [] }),
      });
    expect((await ask()).status).toBe(200);

    rmSync(h.dataDir, { recursive: true, force: true });
    const until = Date.now() + 5_000;
    while (lost.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(lost).toHaveLength(1);
    expect(lost[0]?.dataDir).toBe(h.dataDir);
    expect(h.logs.some((line) => line.includes('DATA DIRECTORY LOST') && line.includes(h.dataDir))).toBe(true);

    const refused = await ask();
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: { code: 'storage_unavailable', type: 'server_error' } });
    expect(upstream.requests).toHaveLength(1);
    const rpc = await fetch(`${h.url}/api/rpc/app.setPaused`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.adminToken}`, 'content-type': 'application/json' },
      body: '{"paused":true}',
    });
    expect(rpc.status).toBe(503);
    expect(await rpc.json()).toMatchObject({ ok: false, error: { code: 'storage_unavailable' } });
    await new Promise((r) => setTimeout(r, 1_200));
    expect(existsSync(h.dataDir)).toBe(false);
  });
});
