import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { askOpenAI, call, send } from '../resilience/resilience-it.testkit';
import { claudeConnection, startFakeClaude } from '../testing/fake-claude/fake-claude';
import { claudeStatus, nowSeconds, send as sendClaude, sentSlow } from '../testing/fake-claude/claude-scene';
import { startFakeUpstream } from '../testing/fake-upstream';
import { openaiConnection, startLeeway, type RunningLeeway } from '../testing/start-leeway';
import { openDatabase } from './open';

/*
 * QDB-11: what must stay in memory is looked for in the SQLite file after a real run — every
 * table, every row, every column. The activity log records how a request went (its failover hops,
 * `served_via`); that is the request's history (PROD-16), not the routing state asked about here.
 */

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'leeway-qdb11-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A core whose stop may be called by the test (to read the file) and again by the cleanup. */
async function start(config: Record<string, unknown>, dir: string): Promise<RunningLeeway> {
  const h = await startLeeway(config, { dataDir: dir });
  let stopped: Promise<void> | null = null;
  const stop = () => (stopped ??= h.stop());
  cleanups.push(stop);
  return { ...h, stop };
}

type Cell = string | number | bigint | Buffer | null;

/** Every table of the stopped core's database, with every row as it is stored. */
function dumpFile(dir: string): Map<string, Record<string, Cell>[]> {
  const db = openDatabase(join(dir, 'leeway.sqlite'));
  try {
    const names = db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all()
      .map((t) => t.name);
    return new Map(
      names.map((name) => [name, db.prepare<[], Record<string, Cell>>(`SELECT * FROM "${name}"`).all()] as const),
    );
  } finally {
    db.close();
  }
}

/** Each cell that contains `needle` (text) or equals it (number), as `table.column`. */
function cellsHolding(dump: Map<string, Record<string, Cell>[]>, needle: string | number): string[] {
  const found: string[] = [];
  for (const [table, rows] of dump)
    for (const row of rows)
      for (const [column, value] of Object.entries(row)) {
        const hit =
          typeof needle === 'number'
            ? value === needle
            : (typeof value === 'string' || Buffer.isBuffer(value)) && value.toString().includes(needle);
        if (hit) found.push(`${table}.${column}`);
      }
  return found;
}

const QUOTA_BODY = { error: { message: 'quota used up for this key', type: 'new_api_error', code: null } };

describe('QDB-11: state that is never persisted', () => {
  it('QDB-11, LOCK-13, RESTATE-15: an active model lockout and the request’s exhausted connection are nowhere in the file; after a restart the connection is asked again', async () => {
    const first = await startFakeUpstream({ format: 'openai', name: 'gw-1' });
    const second = await startFakeUpstream({ format: 'openai', name: 'gw-2' });
    cleanups.push(
      () => first.close(),
      () => second.close(),
    );
    const dir = dataDir();
    const config = {
      connections: [
        // disableCooling: the connection-wide quota rule falls back to a model lockout (RESTATE-14).
        { ...openaiConnection('gw1', first.url), models: ['m1'], priority: 1, disableCooling: true },
        { ...openaiConnection('gw2', second.url), models: ['m1'], priority: 2 },
      ],
    };
    const h = await start(config, dir);
    await call(h, 'resilience.updateSettings', {
      providerErrorRules: {
        '127.0.0.1': [{ status: 403, match: 'quota used up', scope: 'connection', reason: 'quota_exhausted' }],
      },
    });
    first.enqueue({ kind: 'status', status: 403, body: QUOTA_BODY });
    const served = await send(askOpenAI(h, 'm1'));
    // gw1 was exhausted for this request and gw2 served it.
    expect(served.status).toBe(200);
    expect(served.headers.get('x-leeway-connection')).toBe('gw2');
    const [lock] = (await call(h, 'cooldowns.list', undefined)).models;
    expect(lock).toMatchObject({ connection: 'gw1', model: 'm1' });
    if (!lock) throw new Error('no lockout');
    await h.stop();

    const dump = dumpFile(dir);
    // The scan does find what is stored: the connection's own row.
    expect(cellsHolding(dump, lock.connectionId)).toContain('connections.id');
    expect([...dump.keys()].filter((t) => /lock|exhaust|lane/i.test(t))).toEqual([]);
    expect(cellsHolding(dump, lock.key)).toEqual([]);
    expect(cellsHolding(dump, `${lock.connectionId}:m1`)).toEqual([]);
    expect(cellsHolding(dump, lock.expiresAt)).toEqual([]);
    // The stored resilience settings hold the rules a person set, not the lockout they caused.
    const resilience = dump.get('settings')?.find((r) => r.key === 'resilience');
    expect(Object.keys(JSON.parse(String(resilience?.value_json)) as object)).toEqual(['providerErrorRules']);
    // gw1 was not cooled (disableCooling): its health row, if any, says nothing about this failure.
    const health = dump.get('connection_health')?.find((r) => r.connection_id === lock.connectionId);
    expect(health?.rate_limited_until ?? null).toBeNull();

    // A restart starts with neither: the next request goes to gw1 first again.
    const again = await start(config, dir);
    expect((await call(again, 'cooldowns.list', undefined)).models).toEqual([]);
    const next = await send(askOpenAI(again, 'm1'));
    expect(next.headers.get('x-leeway-connection')).toBe('gw1');
    expect(first.requests).toHaveLength(2);
  });

  it('QDB-11, LOWP-13: an active low-priority lane is nowhere in the file; only the opt-in is stored', async () => {
    const fake = await startFakeClaude({ name: 'sub', text: 'from the subscription' });
    cleanups.push(() => fake.close());
    const resetAt = nowSeconds() + 3_600;
    fake.setWall({ resetAt });
    const dir = dataDir();
    const h = await start({ connections: [claudeConnection('sub', fake, { lowPriorityMode: true })] }, dir);
    expect((await sendClaude(h)).status).toBe(200);
    expect(fake.messages().map(sentSlow)).toEqual([false, true]);
    const lane = (await claudeStatus(h, 'sub')).lane;
    expect(lane).toMatchObject({ kind: 'active', resetsAtMs: resetAt * 1000 });
    await h.stop();

    const dump = dumpFile(dir);
    expect(cellsHolding(dump, 'sub')).toContain('connections.name');
    expect([...dump.keys()].filter((t) => /lane|priority/i.test(t))).toEqual([]);
    // The accepted reset is the lane's state; neither its seconds nor its milliseconds are stored anywhere.
    expect(cellsHolding(dump, resetAt)).toEqual([]);
    expect(cellsHolding(dump, resetAt * 1000)).toEqual([]);
    expect(cellsHolding(dump, String(resetAt))).toEqual([]);
    const [row] = dump.get('connections') ?? [];
    const psd = JSON.parse(String(row?.provider_specific_json)) as Record<string, unknown>;
    expect(psd.lowPriorityMode).toBe(true);
    expect(Object.keys(psd).filter((k) => /lane|phase|active|accepted|reset(s)?At/i.test(k))).toEqual([]);
    // The lane took the wall: the connection was never cooled.
    expect(dump.get('connection_health')?.every((r) => r.rate_limited_until === null) ?? true).toBe(true);
  });
});
