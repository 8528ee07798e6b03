import type {
  QuotaDimension,
  QuotaPoolSpec,
  QuotaPoolUsage,
  QuotaPoolView,
  QuotaStoreDriver,
  QuotaStoreStatus,
} from '../../src-shared/domain/quota';
import type { Result } from '../../src-shared/contract/errors';

/**
 * The seams between the quota engine's parts (issue 10), written first so each part can be built
 * against them: the counter store (QWIN-3, QDRV), the pool metadata (QDB), and what the admin door
 * asks of the running engine. Ids are the stored ids (keys, connections, pools), never names.
 */

/** One dimension's counter address: `<poolId>:<unit>:<window>` and its window length. */
export interface DimensionRef {
  key: string;
  windowMs: number;
}

/** Two parallel arrays of bucket values; see `QuotaStore.readMany`. */
export interface BucketPairs {
  prev: Float64Array;
  curr: Float64Array;
}

/**
 * The same reads and writes without a promise, for a store that answers from memory (SQLite): the
 * request path then costs no promise, microtask or fresh array. Each throws where its async twin rejects.
 */
export interface QuotaStoreNow {
  /** `readMany` written into `out` (sized `keyIds.length * dims.length`), which it returns. */
  readManyInto(keyIds: readonly string[], dims: readonly DimensionRef[], now: number, out: BucketPairs): BucketPairs;
  /** `consume`, or null when that counter's mutex is held (an async consume of it is queued): call `consume`. */
  consume(keyId: string, dim: DimensionRef, amount: number, now: number): number | null;
}

/** The two-bucket sliding counters (QWIN-1..5). Every method may reject; callers fail open (QPIPE-3/5). */
export interface QuotaStore {
  readonly driver: QuotaStoreDriver;
  /** The synchronous form while this store can answer without I/O; absent or null: use the async methods. */
  sync?(): QuotaStoreNow | null;
  /** The effective sliding value of one key on one dimension at `now` (QWIN-2). */
  peek(keyId: string, dim: DimensionRef, now: number): Promise<number>;
  /** Adds `amount` to the current bucket; resolves to the new effective value (QWIN-4/5: serialised per key|dimension). */
  consume(keyId: string, dim: DimensionRef, amount: number, now: number): Promise<number>;
  /**
   * The raw buckets of several keys on several dimensions at `now`, in one round trip (the pre-check
   * needs the key's own value, every other key's for the pool total, and the split between the two
   * buckets for Retry-After): index `k * dims.length + d`; `prev` is bucket `floor(now / windowMs) - 1`.
   */
  readMany(keyIds: readonly string[], dims: readonly DimensionRef[], now: number): Promise<BucketPairs>;
  /** Deletes buckets last written before `now - retentionMs` (QENV-3); resolves to the rows removed. */
  gc(retentionMs: number, now: number): Promise<number>;
  /** Zeroes one key's counters, or all (tests, and a pool's "reset usage"). */
  clear(keyId?: string): Promise<void>;
  /** Writes what is buffered (SQLite write-behind) and releases connections. */
  close(): Promise<void>;
}

/** A pool as the engine uses it: ids resolved, dimensions in force, weights already equalised. */
export interface ResolvedPool {
  id: string;
  name: string;
  connectionIds: readonly string[];
  dimensions: readonly QuotaDimension[];
  saturationThreshold: number | null;
  allocations: ReadonlyArray<{
    keyId: string;
    keyName: string;
    weight: number;
    effectiveWeight: number;
    policy: 'hard' | 'soft' | 'burst';
    capValue: number | null;
    capUnit: 'percent' | 'requests' | 'tokens' | 'usd' | null;
  }>;
}

/** Pools and plans in SQLite (QDB-1/2/4); read into memory once per change, never per request. */
export interface QuotaPoolsRepo {
  list(): QuotaPoolView[];
  /** Names resolved to ids; an unknown key or connection is `invalid_input` naming its path. */
  upsert(spec: QuotaPoolSpec, now: number): Result<QuotaPoolView>;
  remove(name: string): boolean;
  /** Every pool in the engine's shape; the runtime rebuilds its index from this after each change. */
  resolved(): ResolvedPool[];
  /** Manual plan overrides by connection id (QPLAN-1). */
  plans(): ReadonlyMap<string, QuotaDimension[]>;
  setPlan(connectionId: string, dimensions: QuotaDimension[], now: number): void;
  removePlan(connectionId: string): boolean;
}

/** What the admin door (contract handlers) asks of the running engine. */
export interface QuotaAdmin {
  /** Usage per dimension and key of one pool (by id or name); null when no such pool. */
  usage(poolIdOrName: string, now: number): Promise<QuotaPoolUsage | null>;
  storeStatus(): QuotaStoreStatus;
}

/**
 * The quota counters kept on this machine (SQLite, db/quota-counter-store.ts): every answer comes
 * from memory, so it is always there; the counters reach the disk in batches.
 */
export interface LocalQuotaStore extends QuotaStore {
  /** A first touch reads its two rows synchronously. */
  sync(): QuotaStoreNow;
  /** Writes every pending row in one transaction now; returns how many rows it wrote. */
  flush(): number;
  /**
   * Sets one (key, dimension)'s two buckets at `now` to what the shared store (Redis) answered, so a
   * Redis outage starts from the team's counts instead of this machine's older ones (issue 24 §4).
   */
  mirror(keyId: string, dim: DimensionRef, now: number, prev: number, curr: number): void;
}

/** One stored counter bucket (a row of `quota_consumption`), with its absolute value. */
export interface StoredBucket {
  keyId: string;
  dimKey: string;
  index: number;
  consumed: number;
  updatedAt: number;
}

/** The local counters' rows; db/quota-bucket-rows.ts implements them with SQL only. */
export interface QuotaBucketRows {
  /** The stored rows of buckets `index` and `index - 1` of one key and dimension. */
  pair(keyId: string, dimKey: string, index: number): readonly { index: number; consumed: number; updatedAt: number }[];
  /** Writes every row in one transaction (absolute values, so a retried write is idempotent). */
  writeAll(rows: readonly StoredBucket[]): void;
  /** Deletes buckets last written before `cutoff` and out of their window at `now`; how many went. */
  deleteOlder(cutoff: number, now: number): number;
  deleteKey(keyId: string): void;
  deleteAll(): void;
  /** False once the database closed (the core closes it after the store). */
  isOpen(): boolean;
  /** Reports a failed write as degraded storage; false when the error was no disk fault. */
  reportFault(error: unknown): boolean;
}
