import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnHeadless, type HeadlessProcess } from '../crash/headless-process';
import { startFakeUpstream, type FakeUpstream } from '../fake-upstream';
import { redisUnavailableReason, startRedisServer, type RedisServer } from '../redis-server';
import { anthropicConnection, TEST_ADMIN_TOKEN, TEST_LOCAL_KEY } from '../start-leeway';

/**
 * Issue 24 §4: session pins and leases across two real Leeway processes (own data dirs, own ids)
 * on one real redis-server. One fake upstream serves every connection; the API key it receives
 * (`sk-ant-secret-<connection>-0000`) tells which connection served.
 */
const skip = redisUnavailableReason();
const AGENT_KEY = 'lw-agent-key-0123456789abcdef';
const AGENT2_KEY = 'lw-agent2-key-0123456789abcdef';
const dirs: string[] = [];
let redis: RedisServer;
let upstream: FakeUpstream;
let one: HeadlessProcess;
let two: HeadlessProcess;

const servedBy = (): string | undefined => upstream.requests.at(-1)?.headers['x-api-key']?.slice(14, -5);

async function ask(
  url: string,
  model: string,
  session: string,
  as: { key: string; headers?: Record<string, string> } = { key: TEST_LOCAL_KEY },
): Promise<{ status: number; served?: string }> {
  const res = await fetch(`${url}/v1/messages`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': as.key,
      'anthropic-version': '2023-06-01',
      'x-claude-code-session-id': session,
      ...as.headers,
    },
    body: JSON.stringify({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
  });
  await res.text();
  return res.status === 200 ? { status: 200, served: servedBy() } : { status: res.status };
}

async function lease(url: string, key: string, body: Record<string, unknown>, owner?: string) {
  const res = await fetch(`${url}/api/v1/session-leases`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-api-key': key,
      ...(owner ? { 'x-leeway-lease-owner': owner } : {}),
    },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    json: (await res.json()) as Record<string, unknown>,
  };
}

/** `warm` exists on both; the second instance also has `cold`, which its combo `pinned` prefers. */
async function instance(withCold: boolean): Promise<HeadlessProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'leeway-team-sessions-'));
  dirs.push(dir);
  const configFile = join(dir, 'config.json');
  const leaseAccess = { scopes: ['lease:exclusive'], allowedConnections: ['lease-x'] };
  const pinned = withCold ? ['cold', 'warm'] : ['warm'];
  writeFileSync(
    configFile,
    JSON.stringify({
      keys: [
        { name: 'test', key: TEST_LOCAL_KEY },
        { name: 'agent', key: AGENT_KEY, ...leaseAccess },
        { name: 'agent2', key: AGENT2_KEY, ...leaseAccess },
      ],
      connections: [
        ...(withCold ? [anthropicConnection('cold', upstream.url, { priority: 1 })] : []),
        anthropicConnection('warm', upstream.url, { priority: 2 }),
        anthropicConnection('lease-x', upstream.url, { priority: 3 }),
        anthropicConnection('lease-y', upstream.url, { priority: 4 }),
      ],
      combos: [
        { name: 'pinned', targets: pinned.map((connection) => ({ connection, model: 'claude-sonnet-4-5' })) },
        {
          name: 'leased',
          targets: ['lease-x', 'lease-y'].map((connection) => ({ connection, model: 'claude-sonnet-4-5' })),
        },
      ],
    }),
  );
  return spawnHeadless({
    dataDir: join(dir, 'data'),
    configFile,
    adminToken: TEST_ADMIN_TOKEN,
    env: { QUOTA_STORE_DRIVER: 'redis', QUOTA_STORE_REDIS_URL: redis.url },
    startTimeoutMs: 60_000,
  });
}

const poll = async (check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};
const oneSecond = (): Promise<void> => new Promise((r) => setTimeout(r, 1_000));

describe.skipIf(skip !== null)(
  `session pins and leases across a team of two Leeway processes${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    beforeAll(async () => {
      redis = await startRedisServer();
      upstream = await startFakeUpstream({ format: 'anthropic', name: 'team' });
      [one, two] = await Promise.all([instance(false), instance(true)]);
      await poll(() => [one, two].every((p) => p.output().includes('[team] facts shared')), 'the team bus');
    }, 150_000);
    afterAll(async () => {
      await Promise.all([one, two].filter(Boolean).map((p) => p.stop('SIGTERM')));
      await Promise.all([upstream.close(), redis.dispose()]);
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    });

    it('ISSUE-24 §4 AFF-2: a session pinned through one instance is served by the other on the same connection', async () => {
      // Unpinned, the second instance serves `pinned` on `cold`.
      expect(await ask(two.url, 'pinned', 'session-elsewhere')).toEqual({ status: 200, served: 'cold' });
      expect(await ask(one.url, 'pinned', 'session-shared')).toEqual({ status: 200, served: 'warm' });
      await oneSecond();
      expect(await ask(two.url, 'pinned', 'session-shared')).toEqual({ status: 200, served: 'warm' });
      expect(await ask(two.url, 'pinned', 'session-shared')).toEqual({ status: 200, served: 'warm' });
    }, 30_000);

    it('ISSUE-24 §4 LEASE-1 LEASE-11: a lease held through one instance keeps other owners off it on the other until released', async () => {
      const held = await lease(one.url, AGENT_KEY, { action: 'acquire' });
      expect(held).toMatchObject({ status: 200, json: { connection: 'lease-x', generation: 1, state: 'acquired' } });
      await oneSecond();
      // Another owner asking the other instance: contention, with the lease's remaining time.
      const refused = await lease(two.url, AGENT2_KEY, { action: 'acquire' });
      expect(refused.status).toBe(429);
      expect(JSON.stringify(refused.json)).toContain('lease_capacity_unavailable');
      expect(Number(refused.retryAfter)).toBeGreaterThan(1);
      // An ordinary request there goes to the next connection instead (LEASE-1).
      expect(await ask(two.url, 'leased', 'session-plain')).toEqual({ status: 200, served: 'lease-y' });

      // The owner uses and renews its lease through the other instance too (same key name there).
      const owner = String(held.json.owner);
      const claim = { 'x-leeway-lease-owner': owner, 'x-leeway-lease-generation': '1' };
      expect(await ask(two.url, 'leased', 'session-owner', { key: AGENT_KEY, headers: claim })).toEqual({
        status: 200,
        served: 'lease-x',
      });
      expect(await lease(two.url, AGENT_KEY, { action: 'renew', generation: 1 }, owner)).toMatchObject({
        status: 200,
        json: { state: 'renewed', connection: 'lease-x' },
      });
      expect(await lease(one.url, AGENT_KEY, { action: 'release', generation: 1 }, owner)).toMatchObject({
        status: 200,
        json: { state: 'released', already: false },
      });
      await oneSecond();
      expect(await lease(two.url, AGENT2_KEY, { action: 'acquire' })).toMatchObject({
        status: 200,
        json: { connection: 'lease-x', state: 'acquired' },
      });
      // And now the first instance refuses the first owner's new lease the same way.
      await oneSecond();
      expect((await lease(one.url, AGENT_KEY, { action: 'acquire' }, owner)).status).toBe(429);
    }, 30_000);
  },
);
