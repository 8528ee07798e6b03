import type {
  BreakerRowStore,
  EgressStore,
  HealthRowStore,
  JsonSetting,
  ResilienceStores,
  StoredHealthRow,
} from '../resilience/resilience-stores';
import type { Database } from './open';
import { guardedWrite } from './storage-health';

/*
 * The resilience engine's rows (resilience/resilience-stores.ts): SQL only, the engine's codecs
 * read them. Writes learned on a request's path go through guardedWrite: a disk that refuses keeps
 * the latest value in memory and writes it on recovery (issue 21 §16).
 */

function breakerRows(db: Database): BreakerRowStore {
  const selectAll = db.prepare<[], { provider: string; state_json: string }>(
    'SELECT provider, state_json FROM provider_breakers',
  );
  const upsert = db.prepare(`INSERT INTO provider_breakers (provider, state_json, updated_at) VALUES (?, ?, ?)
    ON CONFLICT(provider) DO UPDATE SET state_json = excluded.state_json, updated_at = excluded.updated_at`);
  const del = db.prepare('DELETE FROM provider_breakers WHERE provider = ?');
  return {
    loadAll: () => selectAll.all().map((row) => ({ provider: row.provider, json: row.state_json })),
    save: (provider, json, now) => guardedWrite(db, `breaker:${provider}`, () => void upsert.run(provider, json, now)),
    remove: (provider) => guardedWrite(db, `breaker:${provider}`, () => void del.run(provider)),
  };
}

interface HealthColumns {
  connection_id: string;
  rate_limited_until: number | null;
  test_status: string;
  last_error: string | null;
  last_error_type: string | null;
  error_code: string | null;
  backoff_level: number;
  extra_json: string;
}

function healthRows(db: Database): HealthRowStore {
  const selectAll = db.prepare<[], HealthColumns>('SELECT * FROM connection_health');
  const upsert = db.prepare(`INSERT INTO connection_health
      (connection_id, rate_limited_until, test_status, last_error, last_error_type, error_code, backoff_level, extra_json, updated_at)
    VALUES (@connectionId, @rateLimitedUntil, @testStatus, @lastError, @lastErrorType, @errorCode, @backoffLevel, @extraJson, @now)
    ON CONFLICT(connection_id) DO UPDATE SET rate_limited_until = excluded.rate_limited_until,
      test_status = excluded.test_status, last_error = excluded.last_error, last_error_type = excluded.last_error_type,
      error_code = excluded.error_code, backoff_level = excluded.backoff_level, extra_json = excluded.extra_json,
      updated_at = excluded.updated_at`);
  const exists = db.prepare<[string], { n: number }>('SELECT 1 AS n FROM connections WHERE id = ?');
  return {
    loadAll: () =>
      selectAll.all().map((row): StoredHealthRow => ({
        connectionId: row.connection_id,
        rateLimitedUntil: row.rate_limited_until,
        testStatus: row.test_status,
        lastError: row.last_error,
        lastErrorType: row.last_error_type,
        errorCode: row.error_code,
        backoffLevel: row.backoff_level,
        extraJson: row.extra_json,
      })),
    save(row, now) {
      guardedWrite(db, `connection-health:${row.connectionId}`, () => {
        // A connection removed while its request was in flight has nothing left to mark.
        if (!exists.get(row.connectionId)) return;
        upsert.run({ ...row, now });
      });
    },
  };
}

/** One key of the settings table, as its JSON text. */
export function jsonSetting(db: Database, key: string): JsonSetting {
  const select = db.prepare<[string], { value_json: string }>('SELECT value_json FROM settings WHERE key = ?');
  const upsert = db.prepare(
    'INSERT INTO settings (key, value_json) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json',
  );
  return {
    read: () => select.get(key)?.value_json ?? null,
    write: (json) => void upsert.run(key, json),
  };
}

// INDEXED BY makes SQLite refuse the statement rather than silently fall back to a table scan.
export const LAST_EGRESS_IP_SQL = `SELECT egress_ip FROM request_log INDEXED BY request_log_ts
  WHERE ts >= ? AND connection = ? AND egress_ip IS NOT NULL ORDER BY ts DESC LIMIT 1`;
export const CONNECTIONS_ON_IP_SQL = `SELECT DISTINCT connection FROM request_log INDEXED BY request_log_ts
  WHERE ts >= ? AND egress_ip = ? AND connection IS NOT NULL AND connection <> ? LIMIT ?`;

/**
 * The egress lock's two bounded scans of the request log (EGRESS-10), both ranged by the
 * timestamp index, read synchronously with no cache (EGRESS-4): only an allowlisted 429 runs them.
 */
export function egressStore(db: Database): EgressStore {
  const last = db.prepare<[number, string], { egress_ip: string }>(LAST_EGRESS_IP_SQL);
  const siblings = db.prepare<[number, string, string, number], { connection: string }>(CONNECTIONS_ON_IP_SQL);
  const probeUrl = jsonSetting(db, 'egressIpProbeUrl');
  const proxyOf = db.prepare<[string], { outbound_proxy_url: string | null }>(
    'SELECT outbound_proxy_url FROM connections WHERE id = ?',
  );
  const record = db.prepare<[string | null, number, string]>(
    'UPDATE connections SET egress_ip = ?, egress_ip_at = ? WHERE id = ?',
  );
  return {
    lastEgressIp: (name, since) => last.get(since, name)?.egress_ip ?? null,
    connectionsOnIp: (ip, exceptName, since, limit) =>
      siblings.all(since, ip, exceptName, limit).map((row) => row.connection),
    probeUrlJson: () => probeUrl.read(),
    outboundProxyOf: (id) => proxyOf.get(id)?.outbound_proxy_url ?? null,
    recordEgressIp: (id, ip, at) => void record.run(ip, at, id),
  };
}

/** Everything the resilience engine keeps in SQLite. */
export function resilienceStoresOf(db: Database): ResilienceStores {
  return {
    breakers: breakerRows(db),
    health: healthRows(db),
    settings: jsonSetting(db, 'resilience'),
    egress: egressStore(db),
  };
}
