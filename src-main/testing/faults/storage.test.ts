import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../../src-shared/contract/events';
import type { NewRequestLogEntry } from '../../../src-shared/domain/request-log';
import { migrate } from '../../db/migrate';
import { openDatabase, type Database } from '../../db/open';
import { createRequestLog } from '../../db/request-log-repo';
import { locateMigrations } from '../../db/storage';
import { createStorageHealth } from '../../db/storage-health';
import { startFakeUpstream, type FakeUpstream } from '../fake-upstream';
import { anthropicConnection, startLeeway, type RunningLeeway } from '../start-leeway';
import { fillDatabase, makeReadOnly, unfillDatabase } from './storage-kit';

/*
 * Issue 21 §16: storage that fails while Leeway runs. The faults are SQLite's own, on the core's
 * connection: PRAGMA query_only (SQLITE_READONLY on every write, as a read-only disk gives) and
 * PRAGMA max_page_count over a filled file (SQLITE_FULL, "database or disk is full").
 */

const upstreams: FakeUpstream[] = [];
const running: RunningLeeway[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
  await Promise.all(upstreams.splice(0).map((u) => u.close()));
});

async function rpc(lw: RunningLeeway, method: string, input: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${lw.url}/api/rpc/${method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${lw.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  return { status: res.status, body: await res.json() };
}

async function ask(lw: RunningLeeway, model: string): Promise<number> {
  const res = await fetch(`${lw.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': lw.key, 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
  });
  await res.text();
  return res.status;
}

async function health(lw: RunningLeeway): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${lw.url}/health`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function storageEvents(events: CoreEvent[]): unknown[] {
  return events.filter((e) => e.type === ('storage.changed' as CoreEvent['type'])).map((e) => e.payload);
}

async function withoutCooldownWait(lw: RunningLeeway): Promise<void> {
  const set = await rpc(lw, 'resilience.updateSettings', { comboCooldownWait: { enabled: false } });
  if (set.status !== 200) throw new Error('resilience.updateSettings refused');
}

describe('issue 21 §16: storage that fails while Leeway runs', () => {
  it(
    'issue 21 §16: with every write refused by SQLite (SQLITE_READONLY) the proxy keeps serving (a 429 learned and a key touch included), /health says degraded, the dashboard gets storage.changed and app.info says so, admin writes answer 503 storage_unavailable, reads answer, and every activity row is written once writes work again',
    { timeout: 30_000 },
    async () => {
      const up = await startFakeUpstream({ format: 'anthropic', name: 'main' });
      upstreams.push(up);
      const held: { db?: Database } = {};
      // The key's last-used time is written at most once a minute: the clock moves on during the fault.
      let offset = 0;
      const lw = await startLeeway(
        { connections: [anthropicConnection('main', up.url, { models: ['m'] })] },
        { onDatabase: (opened) => (held.db = opened), now: () => Date.now() + offset },
      );
      running.push(lw);
      await withoutCooldownWait(lw);
      const events: CoreEvent[] = [];
      lw.core.events.subscribe((e) => events.push(e));
      expect(await ask(lw, 'm')).toBe(200);
      expect(await health(lw)).toMatchObject({ status: 200, body: { status: 'ok', storage: { ok: true } } });
      const db = held.db;
      if (!db) throw new Error('no database');

      makeReadOnly(db, true);
      // Served while storage fails: answers, a 429 learned (a cooldown write), a key's last-used write.
      offset = 61_000;
      for (let i = 0; i < 5; i++) expect(await ask(lw, 'm')).toBe(200);
      up.enqueue({ kind: 'status', status: 429, headers: { 'retry-after': '1' } });
      expect(await ask(lw, 'm')).toBe(429);

      // Within the log's one-second flush, storage is reported degraded everywhere.
      await expect.poll(async () => (await health(lw)).body.status, { timeout: 5_000 }).toBe('degraded');
      const degraded = await health(lw);
      // 200: the proxy still serves; monitoring reads the body (status, storage.ok) to alert.
      expect(degraded.status).toBe(200);
      expect(degraded.body.storage).toMatchObject({
        ok: false,
        error: expect.stringContaining('read-only'),
        since: expect.any(Number),
      });
      // Every row made during the fault (the first may not have reached the disk before it began refusing).
      expect((degraded.body.storage as { heldRows: number }).heldRows).toBeGreaterThanOrEqual(6);
      expect(storageEvents(events).at(-1)).toMatchObject({ storage: { ok: false } });
      const info = await rpc(lw, 'app.info', null);
      expect(info.body).toMatchObject({ ok: true, value: { storage: { ok: false } } });

      // An admin write: a typed refusal, not a generic 500. Reads still answer.
      const created = await rpc(lw, 'keys.create', { name: 'second' });
      expect(created.status).toBe(503);
      expect(created.body).toMatchObject({ ok: false, error: { code: 'storage_unavailable' } });
      expect((created.body as { error: { message: string } }).error.message).toContain('read-only');
      expect((await rpc(lw, 'keys.list', null)).status).toBe(200);
      expect((await rpc(lw, 'activity.list', { limit: 100 })).status).toBe(200);
      expect((await rpc(lw, 'cooldowns.list', null)).body).toMatchObject({
        ok: true,
        value: { connections: [expect.objectContaining({ name: 'main', testStatus: 'unavailable' })] },
      });

      // Writes work again: the held rows reach SQLite, /health and the dashboard say ok.
      makeReadOnly(db, false);
      await expect.poll(async () => (await health(lw)).body.status, { timeout: 5_000 }).toBe('ok');
      expect(storageEvents(events).at(-1)).toMatchObject({ storage: { ok: true, droppedRows: 0 } });
      const listed = await rpc(lw, 'activity.list', { limit: 100 });
      expect((listed.body as { value: unknown[] }).value).toHaveLength(1 + 5 + 1);
      expect((await rpc(lw, 'keys.create', { name: 'second' })).status).toBe(200);
      // The cooldown learned during the fault was written too (it survives a restart).
      const stored = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM connection_health').get();
      expect(stored?.n).toBe(1);
    },
  );

  it(
    'issue 21 §16: a database that cannot grow (SQLITE_FULL) is reported as a full disk on /health, and the activity rows held meanwhile are written once it has room',
    { timeout: 30_000 },
    async () => {
      const up = await startFakeUpstream({ format: 'anthropic', name: 'main' });
      upstreams.push(up);
      const held: { db?: Database } = {};
      const lw = await startLeeway(
        { connections: [anthropicConnection('main', up.url, { models: ['m'] })] },
        { onDatabase: (opened) => (held.db = opened) },
      );
      running.push(lw);
      const db = held.db;
      if (!db) throw new Error('no database');
      fillDatabase(db);
      const asked = 40;
      for (let i = 0; i < asked; i++) expect(await ask(lw, 'm')).toBe(200);
      await expect.poll(async () => (await health(lw)).body.status, { timeout: 5_000 }).toBe('degraded');
      expect((await health(lw)).body.storage).toMatchObject({ ok: false, error: expect.stringContaining('full') });
      unfillDatabase(db);
      await expect.poll(async () => (await health(lw)).body.status, { timeout: 5_000 }).toBe('ok');
      const rows = db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM request_log').get();
      expect(rows?.n).toBe(asked);
    },
  );
});

describe('issue 21 §16: the activity log while the disk refuses', () => {
  it('issue 21 §16: appends never throw, at most maxHeldRows rows wait in memory (the oldest dropped and counted, never silently), and the rest are written once the disk takes writes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'leeway-held-'));
    const db = openDatabase(join(dir, 'leeway.sqlite'));
    try {
      const migrations = locateMigrations();
      if (!migrations || !migrate(db, migrations).ok) throw new Error('migrations');
      const health = createStorageHealth(() => 1_000);
      const log = createRequestLog(db, { flushEvery: 4, maxHeldRows: 10, health });
      makeReadOnly(db, true);
      const ids = Array.from({ length: 25 }, (_, i) => log.append(entry(i)).id);
      log.flush();
      expect(log.held()).toEqual({ rows: 10, dropped: 15 });
      expect(health.status()).toMatchObject({ ok: false, code: 'SQLITE_READONLY', since: 1_000 });

      makeReadOnly(db, false);
      log.flush();
      health.settle(health.faults(), () => log.probe(), log.held());
      expect(health.status()).toMatchObject({ ok: true, heldRows: 0, droppedRows: 15 });
      const stored = db.prepare<[], { id: number }>('SELECT id FROM request_log ORDER BY id').all();
      // The newest ten: what was happening when the disk came back.
      expect(stored.map((r) => r.id)).toEqual(ids.slice(15));
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function entry(i: number): NewRequestLogEntry {
  return {
    ts: 1_000 + i,
    keyName: 'test',
    apiFormat: 'anthropic',
    endpoint: 'messages',
    model: 'm',
    connection: 'main',
    status: 200,
    stream: false,
    latencyMs: 1,
    ttfbMs: 1,
    inputTokens: null,
    outputTokens: null,
    cacheReadTokens: null,
    cacheWriteTokens: null,
    failover: [],
    errorCode: null,
    servedVia: null,
    sessionPin: null,
  };
}
