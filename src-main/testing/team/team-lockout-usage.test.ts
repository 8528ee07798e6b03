import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClaudeConnectionStatus } from '../../../src-shared/domain/claude';
import type { HeadlessProcess } from '../crash/headless-process';
import { startFakeUpstream, type FakeUpstream } from '../fake-upstream';
import { redisUnavailableReason, startRedisServer, type RedisServer } from '../redis-server';
import { anthropicConnection, TEST_ADMIN_TOKEN, TEST_LOCAL_KEY } from '../start-leeway';
import { askMember, poll, removeTeamDirs, startTeamMember, teamRpc } from './team-process.testkit';

/** Issue 24 §4: model lockouts and Claude usage windows shared by two real Leeway processes on one redis-server. */
const skip = redisUnavailableReason();
let redis: RedisServer;
let first: FakeUpstream;
let second: FakeUpstream;
let sub: FakeUpstream;
let one: HeadlessProcess;
let two: HeadlessProcess;

async function lockouts(url: string): Promise<Array<{ provider: string; connection: string; model: string }>> {
  const res = await fetch(`${url}/api/resilience/model-cooldowns`, {
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
  });
  return ((await res.json()) as { items: Array<{ provider: string; connection: string; model: string }> }).items;
}

async function instance(): Promise<HeadlessProcess> {
  const claude = {
    name: 'sub',
    kind: 'claude-oauth',
    baseUrl: sub.url,
    accessToken: 'sk-ant-oat01-team-test',
    refreshToken: 'sk-ant-ort01-team-test',
    expiresAt: 4_102_444_800_000,
    models: ['claude-opus-4-7'],
  };
  const p = await startTeamMember(
    {
      keys: [{ name: 'test', key: TEST_LOCAL_KEY }],
      connections: [
        anthropicConnection('first', first.url, { priority: 1, models: ['model-a', 'model-b'] }),
        anthropicConnection('second', second.url, { priority: 2, models: ['model-a'] }),
        claude,
      ],
    },
    redis.url,
  );
  await teamRpc(p.url, 'resilience.updateSettings', { modelLockout: { enabled: true } });
  return p;
}

const ask = askMember;

describe.skipIf(skip !== null)(
  `model lockouts and Claude usage across two Leeway processes${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    beforeAll(async () => {
      redis = await startRedisServer();
      first = await startFakeUpstream({ format: 'anthropic', name: 'first' });
      second = await startFakeUpstream({ format: 'anthropic', name: 'second' });
      sub = await startFakeUpstream({ format: 'anthropic', name: 'sub' });
      one = await instance();
      two = await instance();
      await poll(async () => [one, two].every((p) => p.output().includes('[team] facts shared')), 'the team bus');
    }, 150_000);
    afterAll(async () => {
      await Promise.all([one, two].filter(Boolean).map((p) => p.stop('SIGTERM')));
      await Promise.all([first.close(), second.close(), sub.close(), redis.dispose()]);
      removeTeamDirs();
    });

    it('ISSUE-24 §4, LOCK-3: a model lockout learnt by one instance makes the other skip that model on that connection within 1 s; a clear travels back', async () => {
      first.enqueue({ kind: 'status', status: 404 });
      expect(await ask(one.url, 'model-a')).toEqual({ status: 200, connection: 'second' });
      expect(first.requests).toHaveLength(1);
      await new Promise((r) => setTimeout(r, 1_000));
      // The other instance never saw the 404, yet it does not send model-a to `first` any more…
      expect(await ask(two.url, 'model-a')).toEqual({ status: 200, connection: 'second' });
      expect(first.requests).toHaveLength(1);
      // …while another model still goes there: the connection itself is not cooled.
      expect(await ask(two.url, 'model-b')).toEqual({ status: 200, connection: 'first' });
      const [lock] = await lockouts(two.url);
      expect(lock).toMatchObject({ connection: 'first', model: 'model-a' });

      // The operator re-enables the model on the second instance: the first one follows.
      const removed = await fetch(`${two.url}/api/resilience/model-cooldowns`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ provider: lock?.provider, connection: 'first', model: 'model-a' }),
      });
      expect(await removed.json()).toEqual({ ok: true, removed: 1 });
      await poll(async () => (await lockouts(one.url)).length === 0, 'the clear to reach the first instance', 1_000);
      expect(await ask(one.url, 'model-a')).toEqual({ status: 200, connection: 'first' });
    }, 30_000);

    it('ISSUE-24 §4: a Claude usage window observed by one instance shows on the other within 1 s', async () => {
      sub.enqueue({
        kind: 'ok',
        headers: {
          'anthropic-ratelimit-unified-status': 'allowed',
          'anthropic-ratelimit-unified-5h-utilization': '0.97',
          'anthropic-ratelimit-unified-5h-reset': '1900000000',
          'anthropic-ratelimit-unified-7d-utilization': '0.4',
        },
      });
      expect(await ask(one.url, 'claude-opus-4-7')).toEqual({ status: 200, connection: 'sub' });
      const fiveHour = async (url: string) =>
        ((await teamRpc(url, 'claude.status', {})) as ClaudeConnectionStatus[])[0]?.usage?.fiveHour?.utilization;
      expect(await fiveHour(one.url)).toBe(0.97);
      await poll(async () => (await fiveHour(two.url)) === 0.97, 'the usage window on the second instance', 1_000);
      expect(sub.requests).toHaveLength(1);
    }, 30_000);
  },
);
