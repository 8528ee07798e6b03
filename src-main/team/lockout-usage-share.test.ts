import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConnectionView } from '../../src-shared/domain/connection';
import { resilienceStoresOf } from '../db/resilience-rows';
import { createEventBus } from '../kernel/event-bus';
import { readClaudeUnified } from '../providers/claude-oauth/lane/claude-unified';
import { unified } from '../providers/claude-oauth/lane/lane.testkit';
import { createClaudeRuntime } from '../providers/claude-oauth/claude-runtime';
import { createOAuthTokens } from '../providers/claude-oauth/oauth-tokens';
import { decayOnSuccess } from '../resilience/lockout/decay-on-success';
import { ENABLED, modelFailure, PROVIDER } from '../resilience/lockout/lockout-fixtures.testkit';
import { recordModelFailure } from '../resilience/lockout/record-model-failure';
import { createResilienceRuntime } from '../resilience/resilience-runtime';
import { buildCatalog } from '../routing/build-catalog';
import { createTempDb, type TempDb } from '../testing/temp-db';
import { redisUnavailableReason, startRedisServer, type RedisServer } from '../testing/redis-server';
import { clearFact, lockoutFact } from './lockout-facts';
import { createTeamShare, type TeamShare } from './team-share';

const skip = redisUnavailableReason();
const secret = {
  type: 'oauth',
  accessToken: 'sk-ant-oat01-t',
  refreshToken: 'sk-ant-ort01-t',
  expiresAt: 4e12,
} as const;
const view = (id: string): ConnectionView => ({
  id,
  name: 'acct',
  kind: 'claude-oauth',
  baseUrl: null,
  effectiveBaseUrl: 'https://api.anthropic.com',
  models: [],
  modelAliases: {},
  priority: 1,
  enabled: true,
  maxConcurrent: null,
  disableCooling: false,
  providerSpecificData: {},
  secretHint: null,
  createdAt: 0,
  updatedAt: 0,
});
const wait = { timeout: 1_000, interval: 10 };

describe.skipIf(skip !== null)(
  `model lockouts and Claude usage on a real redis-server${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    let server: RedisServer;
    let n = 0;
    const shares: TeamShare[] = [];
    const dbs: TempDb[] = [];
    let admin: Redis;
    beforeAll(async () => {
      server = await startRedisServer();
      admin = new Redis(server.url);
    });
    /** A lockout fact as another instance (or a replay) would announce it on the current team's channel. */
    const announce = (name: string, json: string) =>
      admin.publish(`t${n}:team:facts`, JSON.stringify({ kind: 'lockout', name, json, at: 1, from: 'elsewhere' }));
    afterEach(async () => {
      for (const s of shares.splice(0)) await s.close();
      for (const d of dbs.splice(0)) d.close();
    });
    afterAll(async () => {
      admin.disconnect();
      await server.dispose();
    });

    /** One Leeway instance's engines: connection `acct` under its own id, as with two data dirs. */
    async function instance(id: string, prefix: string, withClaude = true) {
      const temp = createTempDb();
      dbs.push(temp);
      const catalog = buildCatalog([{ view: view(id), secret }], []);
      const resilience = createResilienceRuntime(
        resilienceStoresOf(temp.db),
        {},
        () => catalog,
        createEventBus(),
        Date.now,
      );
      const fetchJson = () => Promise.resolve({ status: 500, json: null });
      const tokens = createOAuthTokens({
        readSecret: () => secret,
        saveSecret: () => undefined,
        onNeedsReauth: () => undefined,
        fetchJson,
        tokenUrl: () => 'http://127.0.0.1:9/token',
        clientId: () => 'client',
        scopes: () => [],
        now: Date.now,
      });
      const claude = createClaudeRuntime({
        tokens,
        fetchJson,
        now: Date.now,
        random: () => 0.5,
        onChange: () => undefined,
        saveOrganizationUuid: () => undefined,
      });
      const share = createTeamShare({
        redis: () => ({ url: server.url, prefix }),
        idOf: (name) => (name === 'acct' ? id : null),
        nameOf: (cid) => (cid === id ? 'acct' : null),
        log: () => undefined,
      });
      shares.push(share);
      await share.start(resilience);
      if (withClaude) share.attachClaude(claude);
      await vi.waitFor(() => expect(share.isUp()).toBe(true), { timeout: 5_000, interval: 20 });
      const connection = catalog.connections[0]!;
      return {
        id,
        share,
        claude,
        resilience,
        /** A lock as the request path records it (a 429 on `model-a`). */
        lock: (at = Date.now()) =>
          resilience.absorbLockouts(
            (s) => recordModelFailure(s, modelFailure({ connectionId: id }), ENABLED, at).state,
          ),
        locks: () => resilience.control.snapshot(Date.now()).models,
        observe: (utilization: string) =>
          claude.afterResponse(
            connection,
            secret,
            {
              status: 200,
              unified: readClaudeUnified(unified({ '5h-utilization': utilization, '5h-reset': '1900000000' })),
            },
            false,
            undefined,
          ),
        usage: () => claude.status(catalog.connections)[0]?.usage ?? null,
      };
    }
    const fresh = async (withClaude = true) => {
      const prefix = `t${++n}:`;
      return [await instance('id-a', prefix), await instance('id-b', prefix, withClaude)] as const;
    };

    it('ISSUE-24 §4, LOCK-13: a model lockout reaches the other instance under its own connection id within 1 s', async () => {
      const [a, b] = await fresh();
      a.lock();
      await vi.waitFor(
        () => expect(b.locks()).toEqual([expect.objectContaining({ connectionId: 'id-b', model: 'model-a' })]),
        wait,
      );
      expect(b.locks()[0]?.expiresAt).toBe(a.locks()[0]?.expiresAt);
    });

    it('ISSUE-24 §4: a lock set while Redis is down reaches the other instance once Redis is back', async () => {
      const [a, b] = await fresh();
      await server.stop();
      await vi.waitFor(() => expect(a.share.isUp()).toBe(false), { timeout: 2_000, interval: 10 });
      a.lock();
      await new Promise((r) => setTimeout(r, 300));
      expect(b.locks()).toEqual([]);
      await server.restart();
      await vi.waitFor(() => expect(b.locks()).toEqual([expect.objectContaining({ connectionId: 'id-b' })]), {
        timeout: 5_000,
        interval: 20,
      });
    });

    it('ISSUE-24 §4, LOCK-7: an operator clear travels, and a stale copy of the lock does not bring it back', async () => {
      const [a, b] = await fresh();
      const lockedAt = Date.now() - 10;
      a.lock(lockedAt);
      await vi.waitFor(() => expect(b.locks()).toHaveLength(1), wait);
      const key = b.locks()[0]!.key;
      expect(b.resilience.control.clear({ target: 'model', key }, Date.now())).toBe(1);
      await vi.waitFor(() => expect(a.locks()).toEqual([]), wait);
      // The lock's old fact, replayed (a late message, or an instance back from an outage): ignored by both.
      const stale = recordModelFailure({}, modelFailure({ connectionId: 'id-a' }), ENABLED, lockedAt).state;
      const entry = Object.values(stale)[0]!;
      const fact = lockoutFact(entry, 'acct');
      await announce(fact.name, fact.json);
      await new Promise((r) => setTimeout(r, 200));
      expect(a.locks()).toEqual([]);
      expect(b.locks()).toEqual([]);
      // A failure after the clear locks again, and that does travel.
      a.lock();
      await vi.waitFor(() => expect(b.locks()).toHaveLength(1), wait);
    });

    it('ISSUE-24 §4, LOCK-12: a lock that decays away on one instance is cleared on the other', async () => {
      const [a, b] = await fresh();
      a.lock();
      await vi.waitFor(() => expect(b.locks()).toHaveLength(1), wait);
      // A success on B: decay halves failureCount 1 to 0 and deletes the entry (what learnSuccess runs).
      b.resilience.absorbLockouts((s) => decayOnSuccess(s, PROVIDER, 'id-b', 'model-a').state);
      await vi.waitFor(() => expect(a.locks()).toEqual([]), wait);
    });

    it('ISSUE-24 §4: an expired lockout fact and a clear of an unknown lock change nothing', async () => {
      const [a, b] = await fresh();
      const old = recordModelFailure({}, modelFailure({ connectionId: 'id-a' }), ENABLED, Date.now() - 600_000).state;
      const entry = Object.values(old)[0]!;
      const expired = lockoutFact(entry, 'acct');
      await announce(expired.name, expired.json);
      const cleared = clearFact({ ...entry, model: 'model-z' }, 'acct', Date.now());
      await announce(cleared.name, cleared.json);
      await new Promise((r) => setTimeout(r, 200));
      // Not even kept as escalation memory: the raw state stays empty on both.
      for (const x of [a, b]) x.resilience.absorbLockouts((held) => (expect(held).toEqual({}), held));
    });

    it('ISSUE-24 §4: a Claude usage window observed by one instance shows on the other; the later observation wins', async () => {
      const [a, b] = await fresh();
      await a.observe('0.97');
      await vi.waitFor(() => expect(b.usage()?.fiveHour?.utilization).toBe(0.97), wait);
      expect(b.usage()?.observedAt).toBe(a.usage()?.observedAt);
      await new Promise((r) => setTimeout(r, 5));
      await b.observe('0.98');
      await vi.waitFor(() => expect(a.usage()?.fiveHour?.utilization).toBe(0.98), wait);
      // An older observation does not replace a newer one.
      const older = { ...b.usage()!, fiveHour: { utilization: 0.1 }, observedAt: 1 };
      expect(a.claude.absorbUsage('id-a', older)).toBe(false);
    });

    it('ISSUE-24 §4: usage that arrives before the Claude runtime is attached is handed over on attach', async () => {
      const [a, b] = await fresh(false);
      await a.observe('0.5');
      await new Promise((r) => setTimeout(r, 200));
      expect(b.usage()).toBeNull();
      b.share.attachClaude(b.claude);
      expect(b.usage()?.fiveHour?.utilization).toBe(0.5);
    });
  },
);
