import type { Redis, RedisOptions } from 'ioredis';
import { createRedisQuotaStore, type RedisQuotaStore } from './redis-store';

/** The ioredis constructor, loaded at run time (the package is optional, QDRV-5). */
export type RedisCtor = new (url: string, options: RedisOptions) => Redis;

/**
 * One Redis connection for the quota store and its health: `up` while ioredis reports ready and
 * the last command did not fail on the connection. ioredis reconnects by itself (capped backoff);
 * a probe (unref'd timer, PING) notices a usable connection even when no `ready` event comes (a
 * command that timed out on a connection that stayed open).
 */
export interface RedisLink {
  readonly store: RedisQuotaStore;
  isUp(): boolean;
  /** Marks the link down after a failed command; the probe brings it back. */
  markDown(reason: string): void;
  /** Closes the connection for good and stops the probe; resolves once the socket is gone. */
  close(): Promise<void>;
}

export interface RedisLinkEvents {
  /** The link became usable; `first` on the initial connect. */
  onUp(first: boolean): void;
  /** The link failed; `reason` is free of secrets only if the caller scrubs it (it may quote an error). */
  onDown(reason: string, initial: boolean): void;
}

/**
 * Defaults chosen because the request path awaits these calls: fail at once when not connected
 * (no offline queue, no per-command retries), give up a connect or a command after ~1.5 s.
 */
export const FAST_FAIL_OPTIONS: RedisOptions = {
  lazyConnect: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  connectTimeout: 1_500,
  commandTimeout: 1_500,
  retryStrategy: (times: number) => Math.min(times * 200, 2_000),
  // ioredis arms this timer on every disconnect and clears it only on the socket's next 'close',
  // which never comes between two reconnect attempts: 0 makes it fire at once instead of holding
  // the process for 2 s.
  disconnectTimeout: 0,
};

const PROBE_MAX_MS = 2_000;

export function openRedisLink(
  Ctor: RedisCtor,
  url: string,
  opts: { prefix: string; redisOptions?: RedisOptions; probeMaxMs?: number },
  events: RedisLinkEvents,
): RedisLink {
  const client = new Ctor(url, { ...FAST_FAIL_OPTIONS, ...opts.redisOptions });
  const store = createRedisQuotaStore(client, { prefix: opts.prefix });
  const probeMaxMs = opts.probeMaxMs ?? PROBE_MAX_MS;
  let up = false;
  // Whether onUp/onDown was ever reported: the first report is the initial connect's outcome.
  let reported = false;
  let closed = false;
  let lastError = '';
  let probe: NodeJS.Timeout | null = null;
  let probeDelay = 100;

  const goUp = (): void => {
    if (closed || up) return;
    up = true;
    probeDelay = 100;
    if (probe) clearTimeout(probe);
    probe = null;
    events.onUp(!reported);
    reported = true;
  };
  const goDown = (reason: string, initial = false): void => {
    if (closed || (!up && !initial)) return;
    up = false;
    reported = true;
    events.onDown(reason, initial);
    scheduleProbe();
  };
  const scheduleProbe = (): void => {
    if (closed || up || probe) return;
    probe = setTimeout(() => {
      probe = null;
      if (closed || up) return;
      probeDelay = Math.min(probeDelay * 2, probeMaxMs);
      if (client.status !== 'ready') return scheduleProbe();
      client.ping().then(goUp, () => scheduleProbe());
    }, probeDelay);
    probe.unref();
  };

  // Without an 'error' listener ioredis prints every failed reconnect; keep the last for the reason.
  client.on('error', (error: Error) => (lastError = error.message));
  client.on('ready', goUp);
  client.on('close', () => goDown(`redis connection lost${lastError ? ` (${lastError})` : ''}`));

  client.connect().catch(() => {
    if (closed || up) return;
    goDown(`cannot connect to redis${lastError ? ` (${lastError})` : ''}`, true);
  });

  return {
    store,
    isUp: () => up,
    markDown: (reason) => goDown(reason),
    async close() {
      if (closed) return;
      closed = true;
      up = false;
      if (probe) clearTimeout(probe);
      probe = null;
      if (client.status === 'end') return;
      const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
      // disconnect(): no reconnect, and a pending timer of the retry strategy is cleared.
      client.disconnect();
      // Between two reconnect attempts there is no socket, so no 'end' will come; wait one timer
      // tick so the disconnect timer above has fired (timers of equal delay run in order).
      if (client.status === 'reconnecting') return new Promise((resolve) => setTimeout(resolve, 0));
      await ended;
    },
  };
}
