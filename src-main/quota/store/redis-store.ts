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

/** The commands the store sends; an ioredis `Redis` instance is one. */
export type RedisQuotaClient = Pick<Redis, 'eval' | 'mget' | 'scan' | 'del' | 'quit'>;

/**
 * QWIN-5: the whole consume as one script, one EVAL — add to the current bucket, (re)arm both
 * buckets' expiry, read the previous one. Returns both values as strings (a Lua number would come
 * back truncated to an integer); the weighting by elapsed time is done by the caller.
 */
const CONSUME_SCRIPT = `
local curr = redis.call('INCRBYFLOAT', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
redis.call('EXPIRE', KEYS[2], ARGV[2])
local prev = redis.call('GET', KEYS[2])
if not prev then prev = '0' end
return {curr, prev}
`;

const SCAN_COUNT = 500;

export function createRedisQuotaStore(client: RedisQuotaClient, opts: RedisQuotaStoreOptions = {}): QuotaStore {
  const prefix = opts.prefix ?? 'leeway:';
  const keyOf = (keyId: string, dim: DimensionRef, index: number): string =>
    `${prefix}quota:${keyId}:${dim.key}:${index}`;
  const ttlSeconds = (dim: DimensionRef): number => Math.ceil((2 * dim.windowMs) / 1000);

  return {
    driver: 'redis',
    async peek(keyId, dim, now) {
      const index = bucketIndexOf(now, dim.windowMs);
      const [curr, prev] = await client.mget(keyOf(keyId, dim, index), keyOf(keyId, dim, index - 1));
      return slidingValue(toNumber(prev), toNumber(curr), now, dim.windowMs);
    },
    async consume(keyId, dim, amount, now) {
      const index = bucketIndexOf(now, dim.windowMs);
      const reply = await client.eval(
        CONSUME_SCRIPT,
        2,
        keyOf(keyId, dim, index),
        keyOf(keyId, dim, index - 1),
        String(amount),
        String(ttlSeconds(dim)),
      );
      const { curr, prev } = parseConsumeReply(reply);
      return slidingValue(prev, curr, now, dim.windowMs);
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
