import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from './open';
import { createMemoryDb } from '../testing/temp-db';
import { CONNECTIONS_ON_IP_SQL, egressStore, LAST_EGRESS_IP_SQL } from './resilience-rows';

const dbs: Database[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

function logWith(rows: { id: number; ts: number; connection: string; ip: string | null }[]) {
  const db = createMemoryDb();
  dbs.push(db);
  const insert = db.prepare<[number, number, string, string | null]>(
    "INSERT INTO request_log (id, ts, endpoint, connection, status, stream, latency_ms, egress_ip) VALUES (?, ?, '/v1/messages', ?, 200, 0, 1, ?)",
  );
  for (const r of rows) insert.run(r.id, r.ts, r.connection, r.ip);
  return { db, log: egressStore(db) };
}

describe('egress log scans', () => {
  it('EGRESS-4: the last known IP is the newest row inside the window; older history and IP-less rows do not count', () => {
    const { log } = logWith([
      { id: 1, ts: 100, connection: 'a', ip: '198.51.100.1' },
      { id: 2, ts: 200, connection: 'a', ip: '198.51.100.2' },
      { id: 3, ts: 300, connection: 'a', ip: null },
    ]);
    expect(log.lastEgressIp('a', 0)).toBe('198.51.100.2');
    expect(log.lastEgressIp('a', 250)).toBeNull();
    expect(log.lastEgressIp('b', 0)).toBeNull();
  });

  it('EGRESS-10: the sibling scan is distinct, excludes the failing connection, keeps to the window and its LIMIT', () => {
    const { log } = logWith([
      { id: 1, ts: 100, connection: 'old', ip: '198.51.100.1' },
      { id: 2, ts: 500, connection: 'a', ip: '198.51.100.1' },
      { id: 3, ts: 510, connection: 'b', ip: '198.51.100.1' },
      { id: 4, ts: 520, connection: 'b', ip: '198.51.100.1' },
      { id: 5, ts: 530, connection: 'c', ip: '203.0.113.9' },
      { id: 6, ts: 540, connection: 'd', ip: '198.51.100.1' },
    ]);
    expect(log.connectionsOnIp('198.51.100.1', 'a', 400, 10).sort()).toEqual(['b', 'd']);
    expect(log.connectionsOnIp('198.51.100.1', 'a', 400, 1)).toHaveLength(1);
  });

  it('EGRESS-10: both scans range over the timestamp index, never the whole table', () => {
    const { db } = logWith([]);
    const planOf = (sql: string, params: unknown[]) =>
      db
        .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
        .all(...params)
        .map((r) => r.detail)
        .join('\n');
    expect(planOf(LAST_EGRESS_IP_SQL, [0, 'a'])).toMatch(/USING INDEX request_log_ts \(ts>\?\)/);
    expect(planOf(CONNECTIONS_ON_IP_SQL, [0, 'x', 'a', 1])).toMatch(/USING INDEX request_log_ts \(ts>\?\)/);
  });
});
