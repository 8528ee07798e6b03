import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CooldownSnapshot } from '../../../src-shared/domain/cooldown';
import { openDatabase } from '../../db/open';
import { startFakeUpstream, type FakeUpstream } from '../fake-upstream';
import { anthropicConnection, TEST_ADMIN_TOKEN, TEST_LOCAL_KEY } from '../start-leeway';
import { followActivityIds, type ActivityIds } from './activity-ids';
import { spawnHeadless, type HeadlessProcess } from './headless-process';

/*
 * The real headless process, killed with SIGKILL while requests are in flight and restarted on the
 * same data dir; then stopped with SIGTERM. What must survive: an intact database, the resilience
 * state (cooldown, terminal state, open breaker) and request-log ids that are never handed out twice.
 */

const upstreams: FakeUpstream[] = [];
const processes: HeadlessProcess[] = [];
const followers: ActivityIds[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const f of followers.splice(0)) f.close();
  for (const p of processes.splice(0))
    if (p.child.exitCode === null && p.child.signalCode === null) await p.stop('SIGKILL');
  await Promise.all(upstreams.splice(0).map((u) => u.close()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function fake(name: string): Promise<FakeUpstream> {
  const up = await startFakeUpstream({ format: 'anthropic', name });
  upstreams.push(up);
  return up;
}

async function start(dataDir: string, configFile: string): Promise<{ p: HeadlessProcess; activity: ActivityIds }> {
  const p = await spawnHeadless({ dataDir, configFile, adminToken: TEST_ADMIN_TOKEN });
  processes.push(p);
  const activity = await followActivityIds(p.url, TEST_ADMIN_TOKEN);
  followers.push(activity);
  return { p, activity };
}

/** POST /v1/messages; the answer is drained so the request is over when this resolves. */
async function ask(p: HeadlessProcess, model: string, stream = false): Promise<number> {
  const res = await fetch(`${p.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': TEST_LOCAL_KEY, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model, max_tokens: 16, stream, messages: [{ role: 'user', content: 'hi' }] }),
  });
  await res.text();
  return res.status;
}

/** A request left in flight: its failure when the process dies is expected. */
function inFlight(p: HeadlessProcess, model: string): void {
  ask(p, model, true).catch(() => {});
}

/** The 503s below open a breaker on purpose: waiting it out (CONC-7, on by default) is not what this test is about. */
async function withoutCooldownWait(p: HeadlessProcess): Promise<void> {
  const res = await fetch(`${p.url}/api/rpc/resilience.updateSettings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ comboCooldownWait: { enabled: false } }),
  });
  if (!((await res.json()) as { ok: boolean }).ok) throw new Error('resilience.updateSettings refused');
}

async function cooldowns(p: HeadlessProcess): Promise<CooldownSnapshot> {
  const res = await fetch(`${p.url}/api/rpc/cooldowns.list`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: 'null',
  });
  const result = (await res.json()) as { ok: boolean; value: CooldownSnapshot };
  if (!result.ok) throw new Error(`cooldowns.list answered ${res.status}`);
  return result.value;
}

/** What must be the same after a restart: each connection's cooling and terminal state, each breaker's state. */
function durableState(snap: CooldownSnapshot) {
  return {
    connections: Object.fromEntries(
      snap.connections.map((c) => [
        c.name,
        {
          testStatus: c.testStatus,
          terminal: c.terminal,
          rateLimitedUntil: c.rateLimitedUntil,
          errorCode: c.errorCode,
        },
      ]),
    ),
    breakers: Object.fromEntries(
      snap.providers.map((b) => [b.provider, { state: b.state, failureCount: b.failureCount }]),
    ),
  };
}

/** Opens the data dir's database after the process is gone. */
function inspect(dataDir: string): { integrity: unknown; ids: number[] } {
  const db = openDatabase(join(dataDir, 'leeway.sqlite'));
  try {
    const integrity = db.pragma('integrity_check', { simple: true });
    const ids = db
      .prepare<[], { id: number }>('SELECT id FROM request_log ORDER BY id')
      .all()
      .map((r) => r.id);
    return { integrity, ids };
  } finally {
    db.close();
  }
}

describe('crash and restart of the headless process', () => {
  it(
    'PROD-16/COOL-2/BRK-7: after kill -9 with requests in flight the database is intact, resilience state is as before and no request-log id is handed out twice; SIGTERM then loses no row',
    { timeout: 30_000 },
    async () => {
      const cool = await fake('cool');
      const dead = await fake('dead');
      const flaky = await fake('flaky');
      const steady = await fake('steady');
      const slow = await fake('slow');
      slow.setDefault({ kind: 'slow-stream', intervalMs: 100, deltas: 300 });
      const dataDir = mkdtempSync(join(tmpdir(), 'leeway-crash-'));
      dirs.push(dataDir);
      const configFile = join(dataDir, 'config.json');
      const connection = (up: FakeUpstream) => anthropicConnection(up.name, up.url, { models: [`m-${up.name}`] });
      writeFileSync(
        configFile,
        JSON.stringify({
          keys: [{ name: 'test', key: TEST_LOCAL_KEY }],
          connections: [cool, dead, flaky, steady, slow].map(connection),
        }),
      );

      // --- First run: cool one connection (429 + retry-after), kill another (banned), open a breaker (503s).
      const first = await start(dataDir, configFile);
      await withoutCooldownWait(first.p);
      cool.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '600' } });
      dead.enqueue({
        kind: 'status',
        status: 403,
        body: { type: 'error', error: { type: 'permission_error', message: 'Your account has been disabled.' } },
      });
      flaky.enqueue({ kind: 'status', status: 503 }, { kind: 'status', status: 503 });
      expect(await ask(first.p, 'm-cool')).toBe(429);
      expect(await ask(first.p, 'm-dead')).toBe(403);
      expect([await ask(first.p, 'm-flaky'), await ask(first.p, 'm-flaky')]).toEqual([503, 503]);
      const before = durableState(await cooldowns(first.p));
      expect(before.connections).toMatchObject({
        cool: { testStatus: 'unavailable', terminal: false },
        dead: { testStatus: 'banned', terminal: true },
      });
      expect(before.breakers[`anthropic@${flaky.url}`]).toMatchObject({ state: 'OPEN' });

      // Streams in flight, then a burst whose ids reach the dashboard just before the kill (unflushed).
      for (let i = 0; i < 6; i++) inFlight(first.p, 'm-slow');
      await slow.waitForRequests(6, 5_000);
      expect(
        (await Promise.all(Array.from({ length: 12 }, () => ask(first.p, 'm-steady')))).every((s) => s === 200),
      ).toBe(true);
      await first.activity.waitFor(4 + 12);
      const exit = await first.p.stop('SIGKILL');
      expect(exit.signal).toBe('SIGKILL');
      const handedBefore = [...first.activity.ids];

      const afterKill = inspect(dataDir);
      expect(afterKill.integrity).toBe('ok');
      // Rows written before the kill are a subset of the ids handed out; the last second may be lost.
      expect(afterKill.ids.every((id) => handedBefore.includes(id))).toBe(true);

      // --- Restart on the same data dir: the same resilience state, fresh ids.
      const second = await start(dataDir, configFile);
      expect(durableState(await cooldowns(second.p))).toEqual(before);
      expect(await ask(second.p, 'm-cool')).toBe(503);
      for (let i = 0; i < 4; i++) inFlight(second.p, 'm-slow');
      await slow.waitForRequests(6 + 4, 5_000);
      const fast = 5;
      for (let i = 0; i < fast; i++) expect(await ask(second.p, 'm-steady')).toBe(200);
      await second.activity.waitFor(1 + fast);
      const handedAfter = [...second.activity.ids];
      expect(
        handedAfter.filter((id) => handedBefore.includes(id)),
        'ids handed out twice',
      ).toEqual([]);
      expect(Math.min(...handedAfter)).toBeGreaterThan(Math.max(...handedBefore));

      // --- SIGTERM: a clean exit, and every request of this run has its row (the streams cut short too).
      const stopped = await second.p.stop('SIGTERM');
      expect(stopped, second.p.output()).toEqual({ code: 0, signal: null });
      const afterStop = inspect(dataDir);
      expect(afterStop.integrity).toBe('ok');
      const rowsOfSecondRun = afterStop.ids.filter((id) => id > Math.max(...handedBefore));
      expect(rowsOfSecondRun.length).toBe(1 + 4 + fast);
      expect(handedAfter.every((id) => afterStop.ids.includes(id))).toBe(true);
    },
  );
});
