/**
 * The rows the resilience engine's persistent state is kept in, as ports: `db/` implements them
 * (SQL only), the engine's codecs read and write them (breaker/breaker-repo.ts,
 * cooldown/health-repo.ts), so no repository runs engine logic.
 */

/** One provider breaker per row, as the JSON of its state (BRK-7). */
export interface BreakerRowStore {
  loadAll(): readonly { provider: string; json: string }[];
  save(provider: string, json: string, now: number): void;
  remove(provider: string): void;
}

/** A connection's cooldown fields (COOL-2 columns) and the engine's extra counters as JSON. */
export interface StoredHealthRow {
  connectionId: string;
  rateLimitedUntil: number | null;
  testStatus: string;
  lastError: string | null;
  lastErrorType: string | null;
  errorCode: string | null;
  backoffLevel: number;
  extraJson: string;
}

export interface HealthRowStore {
  loadAll(): readonly StoredHealthRow[];
  save(row: StoredHealthRow, now: number): void;
}

/** One JSON value in the settings table. */
export interface JsonSetting {
  read(): string | null;
  write(json: string): void;
}

/** What the egress-IP lock reads and records (EGRESS-2/4/10); every call may throw on a closed database. */
export interface EgressStore {
  /** The IP the connection's newest row since `since` left from, or null (never probed, no row). */
  lastEgressIp(connectionName: string, since: number): string | null;
  /** Other connections seen on that IP since `since`, at most `limit` distinct names. */
  connectionsOnIp(ip: string, exceptName: string, since: number, limit: number): string[];
  /** The probe URL setting's JSON, or null when unset. */
  probeUrlJson(): string | null;
  /** The connection's outbound proxy URL, or null for direct. */
  outboundProxyOf(connectionId: string): string | null;
  recordEgressIp(connectionId: string, ip: string | null, at: number): void;
}

export interface ResilienceStores {
  breakers: BreakerRowStore;
  health: HealthRowStore;
  /** The resilience settings a person changed (LOCK-10). */
  settings: JsonSetting;
  egress: EgressStore;
}
