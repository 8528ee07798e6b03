import type { QuotaPoolUsage, QuotaStoreDriver, QuotaStoreStatus } from '../../../src-shared/domain/quota';
import type { FairShareCost } from '../engine/fair-share';
import { buildPoolUsage } from '../engine/pool-usage';
import type { BucketPairs, QuotaAdmin, QuotaPoolsRepo, QuotaStore } from '../quota-ports';
import { createHistory } from './history';
import { buildPoolIndex, EMPTY_INDEX, findPool, type IndexedPool, type PoolIndex } from './pool-index';
import { decideForKey, effectiveSaturation, type QuotaVerdict } from './quota-decision';
import { recordConsumption, type ServedCost } from './quota-record';
import { createRecordQueue } from './record-queue';
import { createWindowReadings, type WindowReadings } from './window-readings';
import type { SignalWindow } from '../../kernel/upstream-signals';
import type { PoolForCatalog } from '../../kernel/catalog';
import { systemCombosOf } from './system-combos';
import { createWarnLimiter } from './warn-limiter';

/** The resolved quota settings the runtime reads on every use (setting > env > default, QDRV-3/QENV-2). */
export interface QuotaRuntimeConfig {
  driver: QuotaStoreDriver;
  driverFrom: 'setting' | 'env' | 'default';
  saturationThreshold: number;
  softDeprioritizeFactor: number;
  retentionDays: number;
}

export interface QuotaRuntimeDeps {
  store: QuotaStore;
  /** What the store factory chose and why (masked URL, no password). */
  storeState: () => { active: QuotaStoreDriver; redisUrl: string | null; fallbackReason: string | null };
  pools: QuotaPoolsRepo;
  config: () => QuotaRuntimeConfig;
  log: (line: string) => void;
  now: () => number;
}

/** The quota engine as the request path uses it, plus the admin door's `QuotaAdmin`. */
export interface QuotaRuntime extends QuotaAdmin {
  /** Rebuilds the pool index from the pools repository; the catalog service calls it after pools, keys or connections changed. */
  reload(): void;
  /** Whether any pool allocates this key: one Map lookup, so keys without a pool pay nothing more. */
  coversKey(keyId: string): boolean;
  /** The pool enforcing this (key, connection) pair, or null. */
  poolOf(keyId: string, connectionId: string): IndexedPool | null;
  /** QPIPE-1/2/3: one store round trip and the fair-share decision; never rejects (fail-open). */
  check(pool: IndexedPool, keyId: string, cost: FairShareCost, now: number): Promise<QuotaVerdict>;
  /**
   * `check` without a promise, while the store answers synchronously (SQLite); null when it cannot
   * right now (Redis): then `check`. Never throws (fail-open).
   */
  checkNow(pool: IndexedPool, keyId: string, cost: FairShareCost, now: number): QuotaVerdict | null;
  /** The connections some pool covers for this key (the same set every call until the next reload). */
  coveredBy(keyId: string): ReadonlySet<string>;
  /** QPIPE-4/5/6: saturation read now, consumption written after `setImmediate`; never throws, never awaited. */
  record(keyId: string, connectionId: string, served: ServedCost, now: number): void;
  /** QPIPE-7's factor: p2c/auto multiply their score by it; the ordered strategies demote instead. */
  softDeprioritizeFactor(): number;
  /** The pools' `qtSd/` combos for the catalog (ROUTE-10). */
  catalogPools(): PoolForCatalog[];
  /**
   * Per connection, the provider's reports of its windows (window-readings.ts): fresh ones gate the
   * quota-share scheduler; the combo strategies rank by the binding one. `record` writes it.
   */
  saturation: WindowReadings;
}

const NO_PENALTY: QuotaVerdict = Object.freeze({ kind: 'allow', penalized: false });
const NONE: ReadonlySet<string> = new Set();

export function createQuotaRuntime(deps: QuotaRuntimeDeps): QuotaRuntime {
  const { store, log } = deps;
  let index: PoolIndex = EMPTY_INDEX;
  const saturation = createWindowReadings();
  const history = createHistory();
  const warnEnforce = createWarnLimiter(log);
  const warnRecord = createWarnLimiter(log);

  const threshold = (ip: IndexedPool) => ip.pool.saturationThreshold ?? deps.config().saturationThreshold;
  const failOpen = (what: string, error: unknown, now: number): QuotaVerdict => {
    const reason = error instanceof Error ? error.message : String(error);
    warnEnforce(`[quota:enforce] ${what} failed, request allowed (fail-open): ${reason}`, now);
    return NO_PENALTY;
  };

  const reload = () => {
    const fromPlan = new Set(
      deps.pools
        .list()
        .filter((p) => p.dimensionsSource === 'manual-plan' || p.dimensionsSource === 'catalog')
        .map((p) => p.id),
    );
    index = buildPoolIndex(deps.pools.resolved(), fromPlan);
    history.keep(new Set(index.pools.map((p) => p.pool.id)));
  };

  /** The decision on buckets already read; `pairs` may be the pool's scratch (used before returning). */
  const decide = (ip: IndexedPool, k: number, pairs: BucketPairs, cost: FairShareCost, now: number): QuotaVerdict => {
    try {
      const sat = effectiveSaturation(ip, pairs, now, saturation, ip.scratch.saturation);
      history.sampleIfDue(ip, pairs, sat, now);
      return decideForKey(ip, k, pairs, cost, sat, threshold(ip), now);
    } catch (error) {
      return failOpen(`deciding pool "${ip.pool.name}"`, error, now);
    }
  };

  const checkNow = (ip: IndexedPool, keyId: string, cost: FairShareCost, now: number): QuotaVerdict | null => {
    const k = ip.allocationIndex.get(keyId);
    if (k === undefined) return NO_PENALTY;
    const sync = store.sync?.() ?? null;
    if (sync === null) return null;
    let pairs: BucketPairs;
    try {
      pairs = sync.readManyInto(ip.storeKeys, ip.refs, now, ip.scratch.pairs);
    } catch (error) {
      return failOpen(`reading pool "${ip.pool.name}"`, error, now);
    }
    return decide(ip, k, pairs, cost, now);
  };

  const recordFailed = (error: unknown, now: number): void => {
    const reason = error instanceof Error ? error.message : String(error);
    warnRecord(`[quota:enforce] recordConsumption failed (drift expected): ${reason}`, now);
  };
  const onRecordRejected = (error: unknown): void => recordFailed(error, deps.now());
  // QPIPE-5: after the answer, off this turn of the loop; the client never waits for the store.
  const records = createRecordQueue((ip, storeKey, served, growth, now) => {
    try {
      recordConsumption(store, ip, storeKey, served, growth, now)?.catch(onRecordRejected);
    } catch (error) {
      recordFailed(error, deps.now());
    }
  });

  return {
    coversKey: (keyId) => index.byKey.has(keyId),
    poolOf: (keyId, connectionId) => index.byKey.get(keyId)?.get(connectionId) ?? null,
    coveredBy: (keyId) => index.coveredByKey.get(keyId) ?? NONE,
    checkNow,
    async check(ip, keyId, cost, now) {
      const k = ip.allocationIndex.get(keyId);
      if (k === undefined) return NO_PENALTY;
      const quick = checkNow(ip, keyId, cost, now);
      if (quick !== null) return quick;
      let pairs;
      try {
        pairs = await store.readMany(ip.storeKeys, ip.refs, now);
      } catch (error) {
        return failOpen(`reading pool "${ip.pool.name}"`, error, now);
      }
      return decide(ip, k, pairs, cost, now);
    },
    record(keyId, connectionId, served, now) {
      try {
        // Every connection's reports are kept once (the strategies read them too, ROUTE-2).
        if (!index.connections.has(connectionId))
          return saturation.observeWindows(connectionId, served.windows, now, null);
        const ip = index.byKey.get(keyId)?.get(connectionId);
        // Only a percent dimension counts the growth of the provider's reports (QPIPE-6).
        const growth = ip?.countsPercent === true ? new Map<SignalWindow, number>() : null;
        saturation.observeWindows(connectionId, served.windows, now, growth);
        if (!ip) return;
        records.push(ip, ip.storeKeys[ip.allocationIndex.get(keyId) ?? -1] ?? keyId, served, growth, now);
      } catch (error) {
        recordFailed(error, now);
      }
    },
    softDeprioritizeFactor: () => deps.config().softDeprioritizeFactor,
    catalogPools: () => systemCombosOf(index.pools, deps.pools.plans()),
    saturation,
    async usage(idOrName, now): Promise<QuotaPoolUsage | null> {
      const ip = findPool(index, idOrName);
      if (!ip) return null;
      const pairs = await store.readMany(ip.storeKeys, ip.refs, now);
      const sat = effectiveSaturation(ip, pairs, now, saturation);
      history.sampleIfDue(ip, pairs, sat, now);
      const t = threshold(ip);
      return {
        poolId: ip.pool.id,
        name: ip.pool.name,
        at: now,
        saturationThreshold: t,
        dimensions: buildPoolUsage({
          pool: ip.pool,
          dimensions: ip.dims,
          pairs,
          providerSaturation: sat,
          history: history.of(ip),
          saturationThreshold: t,
          now,
        }),
      };
    },
    storeStatus(): QuotaStoreStatus {
      const c = deps.config();
      const s = deps.storeState();
      return {
        configured: c.driver,
        configuredFrom: c.driverFrom,
        active: s.active,
        redisUrl: s.redisUrl,
        fallbackReason: s.fallbackReason,
        saturationThreshold: c.saturationThreshold,
        softDeprioritizeFactor: c.softDeprioritizeFactor,
        retentionDays: c.retentionDays,
      };
    },
    reload,
  };
}
