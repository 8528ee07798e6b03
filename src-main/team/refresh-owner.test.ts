import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchJson } from '../providers/claude-oauth/reset/fetch-json';
import { createOAuthTokens, type RefreshOwnership } from '../providers/claude-oauth/oauth-tokens';
import { redisUnavailableReason, startRedisServer, type RedisServer } from '../testing/redis-server';
import { createRefreshLock } from './refresh-lock';

const skip = redisUnavailableReason();
type Secret = { type: 'oauth'; accessToken: string; refreshToken?: string; expiresAt?: number };
const NOW = 1_800_000_000_000;

describe.skipIf(skip !== null)(`one refresh owner per Claude connection${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let server: RedisServer;
  const clients: Redis[] = [];
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await server.dispose();
  });

  /** One machine: its own stored secret (same refresh token as its peer), the team lock on its own connection. */
  function machine(endpoint: FetchJson, ownership: RefreshOwnership) {
    let stored: Secret = { type: 'oauth', accessToken: 'sk-ant-oat01-old', refreshToken: 'rt-old', expiresAt: NOW - 1 };
    const tokens = createOAuthTokens({
      readSecret: () => stored,
      saveSecret: (_id, secret) => void (stored = secret),
      onNeedsReauth: () => undefined,
      fetchJson: endpoint,
      tokenUrl: () => 'https://token.example/v1/oauth/token',
      clientId: () => 'client',
      scopes: () => [],
      now: () => NOW,
      ownership,
    });
    return tokens;
  }

  it('ISSUE-24 §4: two machines due at once: the refresh token is rotated by one of them only', async () => {
    const rotations: unknown[] = [];
    // A slow token endpoint, so both machines are inside their refresh at the same time.
    const endpoint: FetchJson = async (request) => {
      rotations.push(request.body);
      await new Promise((r) => setTimeout(r, 200));
      return { status: 200, json: { access_token: 'sk-ant-oat01-new', refresh_token: 'rt-new', expires_in: 3600 } };
    };
    const lockOn = (): RefreshOwnership => {
      const client = new Redis(server.url);
      clients.push(client);
      const lock = createRefreshLock(client, 'leeway:');
      return { acquire: (id) => lock.acquire(id) };
    };
    const [a, b] = [machine(endpoint, lockOn()), machine(endpoint, lockOn())];
    const results = await Promise.all([a.ensureFresh('claude'), b.ensureFresh('claude')]);
    expect(rotations).toHaveLength(1);
    expect(results.filter((r) => r.ok && r.refreshed)).toHaveLength(1);
    expect(results.find((r) => !r.ok)).toMatchObject({ reason: 'failed', message: /another Leeway instance/ });
  });

  it('ISSUE-24 §4: with the team unreachable each machine still refreshes on its own', async () => {
    let calls = 0;
    const endpoint: FetchJson = async () => {
      calls += 1;
      return { status: 200, json: { access_token: 'sk-ant-oat01-new', refresh_token: 'rt-new', expires_in: 3600 } };
    };
    const down: RefreshOwnership = { acquire: () => Promise.reject(new Error('connection refused')) };
    await expect(machine(endpoint, down).ensureFresh('claude')).resolves.toMatchObject({ ok: true, refreshed: true });
    expect(calls).toBe(1);
  });
});
