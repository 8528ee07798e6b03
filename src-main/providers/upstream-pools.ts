import { Pool } from 'undici';

/** Keep-alive connection pools, one per upstream origin, so every request reuses warm sockets. */
export interface UpstreamPools {
  forOrigin(origin: string): Pool;
  close(): Promise<void>;
}

export function createUpstreamPools(options: { connectTimeoutMs?: number } = {}): UpstreamPools {
  const pools = new Map<string, Pool>();
  return {
    forOrigin(origin) {
      let pool = pools.get(origin);
      if (!pool) {
        pool = new Pool(origin, {
          connections: 128,
          keepAliveTimeout: 30_000,
          keepAliveMaxTimeout: 120_000,
          connect: { timeout: options.connectTimeoutMs ?? 10_000 },
        });
        pools.set(origin, pool);
      }
      return pool;
    },
    async close() {
      const all = [...pools.values()];
      pools.clear();
      // destroy, not close: a hung upstream must not keep shutdown waiting.
      await Promise.all(all.map((pool) => pool.destroy().catch(() => undefined)));
    },
  };
}
