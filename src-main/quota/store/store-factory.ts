import type { RedisOptions } from 'ioredis';
import type { QuotaStoreDriver } from '../../../src-shared/domain/quota';
import type { LocalQuotaStore, QuotaStore } from '../quota-ports';
import { openRedisLink, type RedisCtor, type RedisLink } from './redis-link';
import { maskRedisUrl, scrubSecret } from './redis-url';

/**
 * Picks the quota counter store (QDRV-3..7) and keeps requests served whatever Redis does: SQLite
 * is always open; with driver `redis` and a reachable server the counters go to Redis, otherwise
 * (no URL, no `ioredis`, connection refused, Redis lost mid-run) to SQLite with a `[quota:factory]`
 * warn, and back to Redis once it answers again. A command that fails on Redis is retried on SQLite,
 * so the caller never sees the outage.
 *
 * Consistency across a switch, plainly: the two stores do not merge. Counts made on SQLite during
 * an outage stay in SQLite; when Redis is back, enforcement resumes from Redis's own values, which
 * miss the outage's consumption (an under-count of at most what was served meanwhile, the drift
 * QPIPE-N1 accepts). Likewise SQLite knows nothing of what was counted on Redis, so a second outage
 * starts from SQLite's older values. Other instances on the same Redis never see this instance's
 * SQLite counts.
 */
export interface QuotaStoreConfig {
  driver: QuotaStoreDriver;
  redisUrl: string | null;
  /** Redis key prefix; default `leeway:`. */
  redisKeyPrefix?: string | null;
}

export interface QuotaStoreFactoryStatus {
  configured: QuotaStoreDriver;
  active: QuotaStoreDriver;
  /** Masked (no password). */
  redisUrl: string | null;
  fallbackReason: string | null;
}

export interface SwitchingQuotaStore extends QuotaStore {
  status(): QuotaStoreFactoryStatus;
  /** Re-reads `config()` (call after the quotaStore setting changed); resolves once the first connect settled. */
  reconfigure(): Promise<void>;
  /** Resolves once the configuration read at creation has settled (Redis connected or fallen back). */
  ready(): Promise<void>;
  /** Writes SQLite's buffered counters now (the core's stop, tests). */
  flush(): number;
}

export interface QuotaStoreFactoryDeps {
  /** Opens the local (SQLite) counters, which report to the factory's log; always open. */
  openLocal: (log: (line: string) => void) => LocalQuotaStore;
  config: () => QuotaStoreConfig;
  /** One finished line per call; every line starts with `[quota:factory]` and has no password. */
  log: (line: string) => void;
  /** Loads ioredis; null when it is not installed. Injectable so tests can simulate its absence. */
  loadRedis?: () => Promise<RedisCtor | null>;
  /** Overrides of the fast-fail ioredis options (tests: a shorter retry). */
  redisOptions?: RedisOptions;
  probeMaxMs?: number;
}

/** Dynamic import, so Leeway runs without the optional package (QDRV-5). */
export async function loadIoredis(): Promise<RedisCtor | null> {
  try {
    const mod = await import('ioredis');
    return mod.Redis;
  } catch {
    return null;
  }
}

export function createQuotaStoreFactory(deps: QuotaStoreFactoryDeps): SwitchingQuotaStore {
  const sqlite = deps.openLocal(deps.log);
  const loadRedis = deps.loadRedis ?? loadIoredis;
  let link: RedisLink | null = null;
  let applied: string | null = null;
  let current: QuotaStoreConfig = { driver: 'sqlite', redisUrl: null };
  let fallbackReason: string | null = null;
  let closed = false;
  let settled: Promise<void> = Promise.resolve();

  const warn = (message: string): void => deps.log(scrubSecret(`[quota:factory] ${message}`, current.redisUrl));
  const where = (): string => (current.redisUrl ? maskRedisUrl(current.redisUrl) : 'redis');

  const apply = async (): Promise<void> => {
    if (closed) return;
    const cfg = deps.config();
    const signature = JSON.stringify([cfg.driver, cfg.redisUrl, cfg.redisKeyPrefix ?? null]);
    if (signature === applied) return;
    applied = signature;
    const old = link;
    link = null;
    current = cfg;
    fallbackReason = null;
    await old?.close();
    if (cfg.driver === 'sqlite') return;
    const url = cfg.redisUrl;
    if (!url) return fallBack('driver redis is selected but no Redis URL is set (QUOTA_STORE_REDIS_URL)');
    const Ctor = await loadRedis();
    if (!Ctor) return fallBack('driver redis needs the ioredis package, which is not installed');
    if (closed || applied !== signature) return;
    let first: () => void = () => undefined;
    const firstOutcome = new Promise<void>((resolve) => (first = resolve));
    try {
      link = openRedisLink(
        Ctor,
        url,
        { prefix: cfg.redisKeyPrefix ?? 'leeway:', redisOptions: deps.redisOptions, probeMaxMs: deps.probeMaxMs },
        {
          onUp(initial) {
            fallbackReason = null;
            deps.log(`[quota:factory] ${initial ? 'using redis at' : 'redis back at'} ${where()}; counters in redis`);
            first();
          },
          onDown(reason, initial) {
            fallBack(`${reason} at ${where()}`, initial ? 'retrying in the background' : 'reconnecting');
            first();
          },
        },
      );
    } catch (error) {
      return fallBack(`invalid Redis URL ${where()}: ${String(error)}`);
    }
    await firstOutcome;
  };

  function fallBack(reason: string, next?: string): void {
    fallbackReason = scrubSecret(reason, current.redisUrl);
    warn(`${reason}; falling back to sqlite${next ? `, ${next}` : ''}`);
  }

  const reconfigure = (): Promise<void> => {
    settled = settled.then(apply, apply);
    return settled;
  };

  /** Runs on Redis when it is up; on a failure (or when it is down) runs the same call on SQLite. */
  const route = async <T>(op: (store: QuotaStore) => Promise<T>): Promise<T> => {
    const l = link;
    if (l?.isUp()) {
      try {
        return await op(l.store);
      } catch (error) {
        l.markDown(`redis command failed (${error instanceof Error ? error.message : String(error)})`);
      }
    }
    return op(sqlite);
  };

  void reconfigure();
  return {
    get driver() {
      return link?.isUp() ? 'redis' : 'sqlite';
    },
    // Redis down or not configured: every call goes to SQLite anyway, so its synchronous form may too.
    sync: () => (link?.isUp() ? null : sqlite.sync()),
    peek: (keyId, dim, now) => route((s) => s.peek(keyId, dim, now)),
    consume: (keyId, dim, amount, now) => route((s) => s.consume(keyId, dim, amount, now)),
    readMany: (keyIds, dims, now) => route((s) => s.readMany(keyIds, dims, now)),
    // SQLite's table always gets its retention GC, whichever store is active (Redis expires by itself).
    gc: (retentionMs, now) => sqlite.gc(retentionMs, now),
    async clear(keyId) {
      await sqlite.clear(keyId);
      const l = link;
      if (l?.isUp())
        await l.store.clear(keyId).catch((error: unknown) => l.markDown(`redis clear failed (${String(error)})`));
    },
    status: () => ({
      configured: current.driver,
      active: link?.isUp() ? 'redis' : 'sqlite',
      redisUrl: current.redisUrl ? maskRedisUrl(current.redisUrl) : null,
      fallbackReason,
    }),
    reconfigure,
    ready: () => settled,
    flush: () => sqlite.flush(),
    async close() {
      if (closed) return;
      closed = true;
      await settled;
      const l = link;
      link = null;
      await l?.close();
      await sqlite.close();
    },
  };
}
