import type { Database } from '../../db/open';

/**
 * The two bounded scans of the request log the egress lock may cost (EGRESS-10), both ranged by
 * the timestamp index (`request_log_ts`, QDB-10's `idx_pl_timestamp`). Read synchronously, no cache
 * (EGRESS-4): the lock runs only on an allowlisted 429, so this is never on the success path.
 */
export interface EgressLog {
  /** The IP the connection's newest row since `since` left from, or null (never probed, no row). */
  lastEgressIp(connectionName: string, since: number): string | null;
  /** Other connections seen on that IP since `since`, at most `limit` distinct names. */
  connectionsOnIp(ip: string, exceptName: string, since: number, limit: number): string[];
}

// INDEXED BY makes SQLite refuse the statement rather than silently fall back to a table scan.
export const LAST_EGRESS_IP_SQL = `SELECT egress_ip FROM request_log INDEXED BY request_log_ts
  WHERE ts >= ? AND connection = ? AND egress_ip IS NOT NULL ORDER BY ts DESC LIMIT 1`;
export const CONNECTIONS_ON_IP_SQL = `SELECT DISTINCT connection FROM request_log INDEXED BY request_log_ts
  WHERE ts >= ? AND egress_ip = ? AND connection IS NOT NULL AND connection <> ? LIMIT ?`;

export function createEgressLog(db: Database): EgressLog {
  const last = db.prepare<[number, string], { egress_ip: string }>(LAST_EGRESS_IP_SQL);
  const siblings = db.prepare<[number, string, string, number], { connection: string }>(CONNECTIONS_ON_IP_SQL);
  return {
    lastEgressIp: (name, since) => last.get(since, name)?.egress_ip ?? null,
    connectionsOnIp: (ip, exceptName, since, limit) =>
      siblings.all(since, ip, exceptName, limit).map((row) => row.connection),
  };
}
