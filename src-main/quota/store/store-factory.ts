import type { RedisOptions } from 'ioredis';
import type { QuotaStoreDriver } from '../../../src-shared/domain/quota';
import { slidingValue } from '../engine/sliding-window';
import type { BucketPairs, DimensionRef, LocalQuotaStore, QuotaStore } from '../quota-ports';
import { createOutageJournal } from './outage-journal';
import { openRedisLink, type RedisCtor, type RedisLink } from './redis-link';
import { maskRedisUrl, scrubSecret } from './redis-url';

/**
 * Picks the quota counter store (QDRV-3..7) and keeps requests served whatever Redis does: SQLite
 * is always open; with driver `redis` and a reachable server the counters go to Redis, otherwise
 * (no URL, no `ioredis`, connection refused, Redis lost mid-run) to SQLite with a `[quota:factory]`
 * warn, and back to Redis once it answers again. A command that fails on Redis is retried on SQLite,
 * so the caller never sees the outage.
 *
 * Consistency across a switch (issue 24 §4): while Redis answers, SQLite mirrors the buckets Redis
 * returns (write-through), so an outage starts from the team's counts, not from this machine's older
 * ones. Consumes made on SQLite while Redis is configured but unusable go to an outage journal; when
 * Redis answers again the journal is replayed (each delta once, see outage-journal.ts) before
 * requests use Redis again, so the outage's counts are neither lost nor doubled. What another
 * instance consumed during the same outage is seen only after both replayed (each enforces on what it knows).
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
  /** The clock the outage journal ages its deltas by; default Date.now. */
  now?: () => number;
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
  const journal = createOutageJournal();
  let draining = false;
  const now = deps.now ?? Date.now;

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
            void drain();
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

  /** Redis is used once it is up and the outage journal went back to it. */
  const usable = (): RedisLink | null => {
    const l = link;
    return l?.isUp() && journal.size() === 0 ? l : null;
  };

  const drain = async (): Promise<void> => {
    if (draining) return;
    draining = true;
    try {
      while (journal.size() > 0 && link?.isUp()) {
        const l = link;
        const deltas = journal.size();
        if (await journal.drain(l.store, sqlite, now())) {
          deps.log(`[quota:factory] ${deltas} outage counters merged into redis`);
        } else l.markDown('redis failed while merging the outage counters');
      }
    } finally {
      draining = false;
    }
  };

  const onRedisError = (l: RedisLink, error: unknown): void =>
    l.markDown(`redis command failed (${error instanceof Error ? error.message : String(error)})`);

  /** Runs on Redis when it is usable; on a failure (or when it is not) runs the same call on SQLite. */
  const route = async <T>(op: (store: QuotaStore) => Promise<T>): Promise<T> => {
    const l = usable();
    if (l) {
      try {
        return await op(l.store);
      } catch (error) {
        onRedisError(l, error);
      }
    }
    return op(sqlite);
  };

  const consume = async (keyId: string, dim: DimensionRef, amount: number, at: number): Promise<number> => {
    const l = usable();
    if (l) {
      const opId = journal.nextId();
      try {
        const { prev, curr } = await l.store.consumeRaw(keyId, dim, amount, at, opId);
        sqlite.mirror(keyId, dim, at, prev, curr);
        return slidingValue(prev, curr, at, dim.windowMs);
      } catch (error) {
        onRedisError(l, error);
        // It may still run (a timeout on a live connection): its marker then turns the replay into a no-op.
        journal.record(keyId, dim, amount, at, opId);
        return sqlite.consume(keyId, dim, amount, at);
      }
    }
    if (link) journal.record(keyId, dim, amount, at);
    return sqlite.consume(keyId, dim, amount, at);
  };

  const readMany = async (
    keyIds: readonly string[],
    dims: readonly DimensionRef[],
    at: number,
  ): Promise<BucketPairs> => {
    const l = usable();
    if (l) {
      try {
        const pairs = await l.store.readMany(keyIds, dims, at);
        mirrorAll(keyIds, dims, at, pairs);
        return pairs;
      } catch (error) {
        onRedisError(l, error);
      }
    }
    return sqlite.readMany(keyIds, dims, at);
  };

  /** Keeps SQLite's copy of every bucket Redis just answered, so an outage starts from them. */
  const mirrorAll = (
    keyIds: readonly string[],
    dims: readonly DimensionRef[],
    at: number,
    pairs: BucketPairs,
  ): void => {
    keyIds.forEach((keyId, k) =>
      dims.forEach((dim, d) => {
        const i = k * dims.length + d;
        sqlite.mirror(keyId, dim, at, pairs.prev[i] ?? 0, pairs.curr[i] ?? 0);
      }),
    );
  };

  void reconfigure();
  return {
    get driver() {
      return usable() ? 'redis' : 'sqlite';
    },
    // Redis not configured: every call goes to SQLite, so its synchronous form may too. With Redis
    // configured the async path is kept even while it is down, so outage consumes reach the journal.
    sync: () => (link ? null : sqlite.sync()),
    peek: (keyId, dim, at) => route((s) => s.peek(keyId, dim, at)),
    consume,
    readMany,
    // SQLite's table always gets its retention GC, whichever store is active (Redis expires by itself).
    gc: (retentionMs, now) => sqlite.gc(retentionMs, now),
    async clear(keyId) {
      journal.clear(keyId);
      await sqlite.clear(keyId);
      const l = link;
      if (l?.isUp())
        await l.store.clear(keyId).catch((error: unknown) => l.markDown(`redis clear failed (${String(error)})`));
    },
    status: () => ({
      configured: current.driver,
      active: usable() ? 'redis' : 'sqlite',
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
