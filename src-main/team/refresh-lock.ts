import type { Redis } from 'ioredis';

/**
 * One refresh-token owner per Claude connection across the team (issue 24 §4): before rotating an
 * OAuth refresh token an instance takes `<prefix>team:refresh-lock:<name>` with SET NX PX, its value
 * a fencing token from INCR `<prefix>team:refresh-fence:<name>` (strictly increasing per
 * connection). A holder whose lock expired (a stalled process) finds at `stillOwner` that a newer
 * fence exists and must not save what it rotated; release deletes the lock only if it still holds it.
 */
export interface RefreshLease {
  readonly fence: number;
  /** True while this fence still holds the lock (checked right before the rotated token is saved). */
  stillOwner(): Promise<boolean>;
  release(): Promise<void>;
}

export interface RefreshLock {
  /** The lease, or null while another instance holds it. Rejects when Redis is unreachable. */
  acquire(connectionName: string): Promise<RefreshLease | null>;
}

export type RefreshLockClient = Pick<Redis, 'incr' | 'set' | 'get' | 'eval'>;

/** A refresh takes one token-endpoint call; 30 s covers a slow one without holding a dead owner long. */
export const REFRESH_LOCK_TTL_MS = 30_000;

const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

export function createRefreshLock(client: RefreshLockClient, prefix: string, ttlMs = REFRESH_LOCK_TTL_MS): RefreshLock {
  return {
    async acquire(name) {
      const lockKey = `${prefix}team:refresh-lock:${name}`;
      const fence = await client.incr(`${prefix}team:refresh-fence:${name}`);
      const value = String(fence);
      const taken = await client.set(lockKey, value, 'PX', ttlMs, 'NX');
      if (taken !== 'OK') return null;
      return {
        fence,
        stillOwner: async () => (await client.get(lockKey)) === value,
        release: async () => {
          await client.eval(RELEASE_SCRIPT, 1, lockKey, value);
        },
      };
    },
  };
}
