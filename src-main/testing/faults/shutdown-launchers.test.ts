import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../fake-upstream';
import { anthropicConnection, TEST_ADMIN_TOKEN, TEST_LOCAL_KEY } from '../start-leeway';
import { startRequest } from './shutdown-kit';

/*
 * Issue 21 §9: the launchers (`npm start` → scripts/start.mjs, `leeway start` → bin/leeway.mjs)
 * run in their own process group, as a terminal's foreground job does, and get a Ctrl-C the way a
 * terminal sends it: SIGINT to the whole group. The app must see it once, drain and exit 0. They
 * run the build (out/main/headless.js), rebuilt first when stale.
 */

const root = resolve(__dirname, '..', '..', '..');
const upstreams: FakeUpstream[] = [];
const launched: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const child of launched.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) continue;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
  await Promise.all(upstreams.splice(0).map((u) => u.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

interface Launched {
  child: ChildProcess;
  pid: number;
  url: string;
  dataDir: string;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts a launcher as a terminal would start a job: in a process group of its own. */
async function launch(argv: string[], upstream: FakeUpstream): Promise<Launched> {
  const dataDir = mkdtempSync(join(tmpdir(), 'leeway-launcher-'));
  dirs.push(dataDir);
  const configFile = join(dataDir, 'config.json');
  const connections = [anthropicConnection('quick', upstream.url, { models: ['m-quick'] })];
  writeFileSync(configFile, JSON.stringify({ keys: [{ name: 'test', key: TEST_LOCAL_KEY }], connections }));
  const child = spawn(process.execPath, [...argv, '--data-dir', dataDir, '--port', '0', '--config', configFile], {
    cwd: root,
    detached: true,
    env: {
      ...process.env,
      LEEWAY_PORT: undefined,
      LEEWAY_ADMIN_PORT: undefined,
      LEEWAY_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      LEEWAY_MODEL_DISCOVERY: '0',
      LEEWAY_SHUTDOWN_GRACE: '20',
      LEEWAY_FROM_SOURCE: undefined,
    },
  });
  launched.push(child);
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once('exit', (code, signal) => done({ code, signal })),
  );
  const deadline = Date.now() + 90_000;
  for (;;) {
    const url = /Proxy: +(http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
    if (url !== undefined && out.includes('Dashboard:')) {
      if (child.pid === undefined) throw new Error('no pid');
      return { child, pid: child.pid, url, dataDir, output: () => out, exited };
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the launcher did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const LAUNCHERS = [
  { name: 'npm start (scripts/start.mjs --headless)', argv: ['scripts/start.mjs', '--headless'] },
  { name: 'leeway start (bin/leeway.mjs start)', argv: ['bin/leeway.mjs', 'start'] },
];

/** How the signal arrives: a terminal's Ctrl-C, the same with npm's forwarded copy, or a kill of the launcher alone. */
const DELIVERIES = {
  'Ctrl-C (SIGINT to the process group)': (pid: number) => process.kill(-pid, 'SIGINT'),
  "Ctrl-C under npm with bash (the group's SIGINT, then npm's copy to the launcher)": (pid: number) => {
    process.kill(-pid, 'SIGINT');
    process.kill(pid, 'SIGINT');
  },
  'kill -INT <launcher pid>': (pid: number) => process.kill(pid, 'SIGINT'),
};

describe('issue 21 §9: the launchers pass one Ctrl-C on once', () => {
  for (const launcher of LAUNCHERS) {
    for (const [how, deliver] of Object.entries(DELIVERIES)) {
      it(
        `issue 21 §9: ${launcher.name}, ${how}: the app drains once (a stream in flight completes), no "received again", exit 0`,
        {
          timeout: 120_000,
        },
        async () => {
          const up = await startFakeUpstream({ format: 'anthropic', name: 'quick' });
          upstreams.push(up);
          up.setDefault({ kind: 'slow-stream', intervalMs: 100, deltas: 15 });
          const app = await launch(launcher.argv, up);
          const stream = startRequest(
            app.url,
            '/v1/messages',
            { 'x-api-key': TEST_LOCAL_KEY, 'anthropic-version': '2023-06-01' },
            { model: 'm-quick', max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'hi' }] },
          );
          await stream.firstBytes;
          deliver(app.pid);
          const exit = await app.exited;
          expect(exit, app.output()).toEqual({ code: 0, signal: null });
          expect(app.output()).not.toContain('received again');
          expect(app.output().match(/SIGINT received, stopping/g)).toHaveLength(1);
          expect(await stream.text).toContain('event: message_stop');
        },
      );
    }
  }

  it(
    'issue 21 §9: a launcher killed with SIGKILL leaves no app behind: it stops cleanly and frees the data dir',
    {
      timeout: 60_000,
    },
    async () => {
      const up = await startFakeUpstream({ format: 'anthropic', name: 'quick' });
      upstreams.push(up);
      const app = await launch(['bin/leeway.mjs', 'start'], up);
      const lock = join(app.dataDir, 'leeway.lock');
      const appPid = (JSON.parse(readFileSync(lock, 'utf8')) as { pid: number }).pid;
      expect(appPid).not.toBe(app.pid);
      process.kill(app.pid, 'SIGKILL');
      await app.exited;
      // The app, in its own process group, sees its launcher's IPC channel close and stops as for SIGTERM.
      await expect.poll(() => existsSync(lock), { timeout: 20_000 }).toBe(false);
      await expect
        .poll(
          () => {
            try {
              process.kill(appPid, 0);
              return 'alive';
            } catch {
              return 'gone';
            }
          },
          { timeout: 10_000 },
        )
        .toBe('gone');
    },
  );
});
