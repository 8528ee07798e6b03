import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EMPTY_LEASE_BOOK } from '../routing/leases/lease-book';
import { acquireLease } from '../routing/leases/lease-lifecycle';
import { startFakeUpstream, type FakeUpstream } from '../testing/fake-upstream';
import { call } from '../resilience/resilience-it.testkit';
import { anthropicConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';
import { createTempDb } from '../testing/temp-db';
import { hashLeaseOwner, mintLeaseOwner } from './lease-owner-material';
import { createLeasesRepo } from '../routing/leases/lease-store';
import { createLeaseRows } from './lease-rows';
import { openDatabase, type Database } from './open';

/*
 * What the QDB tables hold, read back from the SQLite file itself (real migrations), after the
 * core wrote it. Leeway's names differ from the seed's on purpose (migrations 0001/0006 say so):
 * `connections` is `provider_connections` (its COOL-2 fields live beside it in `connection_health`,
 * one row per connection), `session_account_affinity` is `sessionAccountAffinity`, `settings` is
 * `key_value`, `session_leases` is the lease table.
 */

const MODEL = 'claude-sonnet-4-5';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function fake(name: string): Promise<FakeUpstream> {
  const upstream = await startFakeUpstream({ format: 'anthropic', name });
  cleanups.push(() => upstream.close());
  return upstream;
}

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'leeway-qdb-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function start(config: Record<string, unknown>, dir: string): Promise<RunningLeeway> {
  const h = await startLeeway(config, { dataDir: dir });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await h.stop();
  };
  cleanups.push(stop);
  return { ...h, stop };
}

/** Reads a database file as a plain SQLite file, then closes it. */
function readDb<T>(file: string, read: (db: Database) => T): T {
  const db = openDatabase(file);
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** The database file of a stopped core's data directory. */
const readFile = <T>(dir: string, read: (db: Database) => T): T => readDb(join(dir, 'leeway.sqlite'), read);

const json = (text: unknown): unknown => JSON.parse(String(text));

interface ConnectionRow {
  id: string;
  name: string;
  max_concurrent: number | null;
  disable_cooling: number;
  provider_specific_json: string;
  rate_limit_overrides_json: string;
}

interface HealthRow {
  rate_limited_until: number | null;
  test_status: string;
  last_error: string | null;
  last_error_type: string | null;
  error_code: string | null;
  backoff_level: number;
}

describe('QDB tables in the SQLite file', () => {
  it('QDB-6: a connection row holds max_concurrent, disableCooling, providerSpecificData and rateLimitOverrides; its COOL-2 fields sit in connection_health', async () => {
    const glm = await fake('glm');
    const plain = await fake('plain');
    const dir = dataDir();
    const h = await start(
      {
        connections: [
          anthropicConnection('glm', glm.url, {
            models: [MODEL],
            maxConcurrent: 2,
            lowPriorityMode: true,
            autoLimitReset: true,
            organizationUUID: 'org-1234',
            rateLimitOverrides: { maxWaitMs: 5_000, maxQueueDepth: 4 },
          }),
          anthropicConnection('plain', plain.url, { models: [MODEL], disableCooling: true }),
        ],
      },
      dir,
    );
    // A 429 far over the cooldown-wait limit: answered at once and recorded as a cooldown (COOL-2).
    glm.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '120' } });
    const before = Date.now();
    const res = await fetch(`${h.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': h.key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: `glm/${MODEL}`, max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
    });
    await res.text();
    expect(res.status).toBe(429);
    await h.stop();

    const { rows, health } = readFile(dir, (db) => {
      const all = db
        .prepare<[], ConnectionRow>(
          'SELECT id, name, max_concurrent, disable_cooling, provider_specific_json, rate_limit_overrides_json FROM connections ORDER BY name',
        )
        .all();
      const cooling = db
        .prepare<[string], HealthRow>(
          'SELECT rate_limited_until, test_status, last_error, last_error_type, error_code, backoff_level FROM connection_health WHERE connection_id = ?',
        )
        .get(all.find((r) => r.name === 'glm')?.id ?? '');
      return { rows: all, health: cooling };
    });
    expect(rows.map((r) => [r.name, r.max_concurrent, r.disable_cooling])).toEqual([
      ['glm', 2, 0],
      ['plain', null, 1],
    ]);
    const [glmRow, plainRow] = rows;
    expect(json(glmRow?.provider_specific_json)).toMatchObject({
      lowPriorityMode: true,
      autoLimitReset: true,
      organizationUUID: 'org-1234',
    });
    expect(json(glmRow?.rate_limit_overrides_json)).toEqual({ maxWaitMs: 5_000, maxQueueDepth: 4 });
    expect(json(plainRow?.rate_limit_overrides_json)).toEqual({});

    expect(health).toMatchObject({
      test_status: 'unavailable',
      last_error_type: 'rate_limit_exceeded',
      error_code: '429',
      backoff_level: expect.any(Number) as number,
      last_error: expect.any(String) as string,
    });
    expect(Number(health?.rate_limited_until)).toBeGreaterThanOrEqual(before + 110_000);
    expect(Number(health?.rate_limited_until)).toBeLessThanOrEqual(Date.now() + 121_000);
  });

  it('QDB-8: a lease row holds the SHA-256 of the owner id (never the id), the generation, the key id, the connection id and the expiry', () => {
    const temp = createTempDb();
    cleanups.push(temp.close);
    temp.db
      .prepare("INSERT INTO local_keys (id, name, key_hash, prefix, created_at) VALUES ('k1', 'k1', ?, 'lw-xxxx', 0)")
      .run('a'.repeat(64));
    temp.db
      .prepare(
        "INSERT INTO connections (id, name, kind, created_at, updated_at) VALUES ('c1', 'c1', 'anthropic', 0, 0)",
      )
      .run();
    const T0 = 1_700_000_000_000;
    const { owner, ownerHash } = mintLeaseOwner();
    const repo = createLeasesRepo(createLeaseRows(temp.db));
    const step = acquireLease(EMPTY_LEASE_BOOK, { ownerHash, keyId: 'k1', candidates: ['c1'], ttlMs: 90_000 }, T0);
    expect(step.decision.kind).toBe('acquired');
    expect(repo.commit(step.book).ok).toBe(true);
    temp.db.close();

    const rows = readDb(temp.file, (db) =>
      db.prepare<[], Record<string, unknown>>('SELECT * FROM session_leases').all(),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      owner_hash: hashLeaseOwner(owner),
      generation: 1,
      key_id: 'k1',
      connection_id: 'c1',
      state: 'active',
      expires_at: T0 + 90_000,
    });
    expect(rows[0]?.owner_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.values(rows[0] ?? {})).not.toContain(owner);
  });

  it('QDB-9: the settings table (the seed’s key_value) holds the resilience groups, lockout settings, sessionAffinityTtlMs, quotaStore.driver and providerErrorRules, and they are in force after a restart', async () => {
    const dir = dataDir();
    const config = { connections: [] };
    const first = await start(config, dir);
    const rules = {
      '127.0.0.1': [
        { status: 403, match: 'quota gone', scope: 'connection' as const, reason: 'quota_exhausted' as const },
      ],
    };
    await call(first, 'resilience.updateSettings', {
      requestQueue: { maxWaitMs: 45_000, maxQueueDepth: 3 },
      quotaShareConcurrencyLimit: { enabled: false },
      comboCooldownWait: { maxWaitMs: 12_000, maxAttempts: 2 },
      streamRecovery: { throughputWatchdog: { enabled: true } },
      modelLockout: { enabled: true, maxBackoffSteps: 3 },
      providerErrorRules: rules,
    });
    await call(first, 'settings.update', { sessionAffinityTtlMs: 600_000, quotaStore: { driver: 'sqlite' } });
    await first.stop();

    const stored = readFile(
      dir,
      (db) =>
        new Map(
          db
            .prepare<[], { key: string; value_json: string }>('SELECT key, value_json FROM settings')
            .all()
            .map((r) => [r.key, json(r.value_json)]),
        ),
    );
    expect(stored.get('resilience')).toMatchObject({
      requestQueue: { maxWaitMs: 45_000, maxQueueDepth: 3 },
      quotaShareConcurrencyLimit: { enabled: false },
      comboCooldownWait: { maxWaitMs: 12_000, maxAttempts: 2 },
      streamRecovery: { throughputWatchdog: { enabled: true } },
      modelLockout: { enabled: true, maxBackoffSteps: 3 },
      providerErrorRules: rules,
    });
    expect(stored.get('sessionAffinityTtlMs')).toBe(600_000);
    expect(stored.get('quotaStore')).toEqual({ driver: 'sqlite' });

    const second = await start(config, dir);
    expect(await call(second, 'resilience.getSettings', undefined)).toMatchObject({
      requestQueue: { maxWaitMs: 45_000, maxQueueDepth: 3 },
      quotaShareConcurrencyLimit: { enabled: false },
      comboCooldownWait: { enabled: true, maxWaitMs: 12_000, maxAttempts: 2 },
      streamRecovery: { throughputWatchdog: { enabled: true } },
      modelLockout: { enabled: true, maxBackoffSteps: 3 },
      providerErrorRules: rules,
    });
    expect(await call(second, 'settings.get', undefined)).toMatchObject({
      sessionAffinityTtlMs: 600_000,
      quotaStore: { driver: 'sqlite' },
    });
  });
});
