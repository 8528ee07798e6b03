import type { Redis } from 'ioredis';
import { bucketIndexOf, slidingValue } from '../engine/sliding-window';
import type { BucketPairs, DimensionRef, QuotaStore } from '../quota-ports';

/**
 * The shared quota counter store for several Leeway instances (QDRV-2): one Redis string per
 * bucket, `<prefix>quota:<apiKeyId>:<dimensionKey>:<bucketIndex>`, expiring two windows after its
 * last write, so Redis itself does the retention (gc is a no-op). Bucket indexes come from the
 * caller's clock: instances sharing a Redis must keep their clocks in sync (NTP is plenty).
 */
export interface RedisQuotaStoreOptions {
  /** Key prefix; default `leeway:`. */
  prefix?: string;
  /** Whether `close()` quits the client (false: the client belongs to whoever created it). */
  quitOnClose?: boolean;
}

/** One outage delta going back to Redis (see outage-journal.ts). */
export interface ReplayEntry {
  /** Unique per replay attempt: Redis applies an id once even when the reply was lost and it is sent again. */
  id: string;
  keyId: string;
  dim: DimensionRef;
  index: number;
  delta: number;
  /** This instance's own total of that bucket: Redis ends at least there (a Redis that lost its data). */
  floor: number;
}

/** The shared store plus what the switching store needs to keep SQLite in step with it. */
export interface RedisQuotaStore extends QuotaStore {
  /**
   * `consume`, resolving to both raw buckets (the caller mirrors them into SQLite). With `opId` the
   * script also leaves that id's replay marker (for `OP_MARKER_SECONDS`): a consume that timed out but
   * ran after all makes its journaled replay a no-op instead of a double count.
   */
  consumeRaw(
    keyId: string,
    dim: DimensionRef,
    amount: number,
    now: number,
    opId?: string,
  ): Promise<{ prev: number; curr: number }>;
  /** Adds an outage delta once per id and raises the bucket to `floor` if it is below. */
  replay(entry: ReplayEntry): Promise<void>;
}

/** The commands the store sends; an ioredis `Redis` instance is one. */
export type RedisQuotaClient = Pick<Redis, 'eval' | 'mget' | 'scan' | 'del' | 'quit'>;

/**
 * QWIN-5: the whole consume as one script, one EVAL — add to the current bucket, (re)arm both
 * buckets' expiry, read the previous one. With an op id it adds only if that id is new: a consume
 * that timed out is journaled and replayed under its id, and ioredis may still deliver the original
 * (resent on reconnect) after the replay; whichever comes second adds nothing. Returns both values as strings (a Lua number would come
 * back truncated to an integer); the weighting by elapsed time is done by the caller.
 */
const CONSUME_SCRIPT = `
local fresh = true
if KEYS[3] then fresh = redis.call('SET', KEYS[3], '1', 'NX', 'EX', ARGV[3]) end
local curr
if fresh then curr = redis.call('INCRBYFLOAT', KEYS[1], ARGV[1]) else curr = redis.call('GET', KEYS[1]) or '0' end
redis.call('EXPIRE', KEYS[1], ARGV[2])
redis.call('EXPIRE', KEYS[2], ARGV[2])
local prev = redis.call('GET', KEYS[2])
if not prev then prev = '0' end
return {curr, prev}
`;

/**
 * Issue 24 §4: an outage delta, applied once (the marker key is set NX first, so a retry after a lost
 * reply adds nothing), then the bucket is raised to the sender's own total — a Redis restarted empty
 * gets back at least what this instance saw, a Redis that kept its data gets exactly the delta more.
 */
const REPLAY_SCRIPT = `
if redis.call('SET', KEYS[2], '1', 'NX', 'EX', ARGV[3]) then
  local v = tonumber(redis.call('INCRBYFLOAT', KEYS[1], ARGV[1]))
  if v < tonumber(ARGV[2]) then redis.call('SET', KEYS[1], ARGV[2]) end
  redis.call('EXPIRE', KEYS[1], ARGV[3])
end
return 1
`;

const SCAN_COUNT = 500;
/** How long a consume's replay marker lives: far longer than a command can wait in Redis's queue. */
export const OP_MARKER_SECONDS = 600;

export function createRedisQuotaStore(client: RedisQuotaClient, opts: RedisQuotaStoreOptions = {}): RedisQuotaStore {
  const prefix = opts.prefix ?? 'leeway:';
  const keyOf = (keyId: string, dim: DimensionRef, index: number): string =>
    `${prefix}quota:${keyId}:${dim.key}:${index}`;
  const ttlSeconds = (dim: DimensionRef): number => Math.ceil((2 * dim.windowMs) / 1000);
  const replayKey = (id: string): string => `${prefix}quota-replay:${id}`;
  const consumeRaw = async (
    keyId: string,
    dim: DimensionRef,
    amount: number,
    now: number,
    opId?: string,
  ): Promise<{ prev: number; curr: number }> => {
    const index = bucketIndexOf(now, dim.windowMs);
    const keys = [keyOf(keyId, dim, index), keyOf(keyId, dim, index - 1)];
    if (opId !== undefined) keys.push(replayKey(opId));
    const reply = await client.eval(
      CONSUME_SCRIPT,
      keys.length,
      ...keys,
      String(amount),
      String(ttlSeconds(dim)),
      String(OP_MARKER_SECONDS),
    );
    return parseConsumeReply(reply);
  };

  return {
    driver: 'redis',
    async peek(keyId, dim, now) {
      const index = bucketIndexOf(now, dim.windowMs);
      const [curr, prev] = await client.mget(keyOf(keyId, dim, index), keyOf(keyId, dim, index - 1));
      return slidingValue(toNumber(prev), toNumber(curr), now, dim.windowMs);
    },
    async consume(keyId, dim, amount, now) {
      const { curr, prev } = await consumeRaw(keyId, dim, amount, now);
      return slidingValue(prev, curr, now, dim.windowMs);
    },
    consumeRaw,
    async replay(entry) {
      await client.eval(
        REPLAY_SCRIPT,
        2,
        keyOf(entry.keyId, entry.dim, entry.index),
        replayKey(entry.id),
        String(entry.delta),
        String(entry.floor),
        String(ttlSeconds(entry.dim)),
      );
    },
    async readMany(keyIds, dims, now) {
      const size = keyIds.length * dims.length;
      const pairs: BucketPairs = { prev: new Float64Array(size), curr: new Float64Array(size) };
      if (size === 0) return pairs;
      const keys: string[] = [];
      for (const keyId of keyIds) {
        for (const dim of dims) {
          const index = bucketIndexOf(now, dim.windowMs);
          keys.push(keyOf(keyId, dim, index), keyOf(keyId, dim, index - 1));
        }
      }
      const values = await client.mget(keys);
      for (let i = 0; i < size; i += 1) {
        pairs.curr[i] = toNumber(values[2 * i]);
        pairs.prev[i] = toNumber(values[2 * i + 1]);
      }
      return pairs;
    },
    gc() {
      // Every bucket carries an expiry of two windows; Redis removes them itself.
      return Promise.resolve(0);
    },
    async clear(keyId) {
      const pattern =
        keyId === undefined ? `${escapeGlob(prefix)}quota:*` : `${escapeGlob(prefix)}quota:${escapeGlob(keyId)}:*`;
      let cursor = '0';
      do {
        const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', SCAN_COUNT);
        if (keys.length > 0) await client.del(keys);
        cursor = next;
      } while (cursor !== '0');
    },
    async close() {
      if (opts.quitOnClose) await client.quit();
    },
  };
}

function toNumber(value: string | null | undefined): number {
  if (value == null) return 0;
  const n = Number(value);
  return Number.isFinite(n) ? n : 0;
}

/** The script's `{curr, prev}` reply; anything else is a bug worth surfacing (callers fail open). */
function parseConsumeReply(reply: unknown): { curr: number; prev: number } {
  if (Array.isArray(reply) && reply.length === 2) {
    const [curr, prev]: unknown[] = reply;
    if (
      (typeof curr === 'string' || typeof curr === 'number') &&
      (typeof prev === 'string' || typeof prev === 'number')
    ) {
      return { curr: toNumber(String(curr)), prev: toNumber(String(prev)) };
    }
  }
  throw new Error(`unexpected reply from the quota consume script: ${JSON.stringify(reply)}`);
}

/** SCAN MATCH is a glob: ids and prefixes are matched literally. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}
