import type { Redis } from 'ioredis';
import { FAST_FAIL_OPTIONS, type RedisCtor } from '../quota/store/redis-link';

/**
 * The team's fact bus (issue 24 §4): facts one instance learns (a connection's cooldown or terminal
 * state, keyed by connection NAME since ids differ per data dir) are written through to a Redis hash
 * `<prefix>team:<kind>` and announced on `<prefix>team:facts`; other instances absorb them within
 * one pub/sub hop. While Redis is down each instance keeps its local state (SQLite) and remembers
 * what changed; when Redis answers it first absorbs the hash (the merge decides, e.g. the
 * later-expiring cooldown wins), then writes back what it changed meanwhile.
 */
export interface TeamFact {
  kind: string;
  name: string;
  /** The fact's JSON as the kind's owner writes it. */
  json: string;
  at: number;
  from: string;
}

export interface TeamBus {
  /** Write-through of a local change; remembered and sent on reconnect while Redis is down. */
  publish(kind: string, name: string, json: string, at: number): void;
  isUp(): boolean;
  /** The command connection while Redis is up (the refresh lock uses it), else null. */
  client(): Redis | null;
  close(): Promise<void>;
}

export interface TeamBusDeps {
  Ctor: RedisCtor;
  url: string;
  prefix: string;
  instanceId: string;
  kinds: readonly string[];
  /** A fact from another instance (or the hash, on connect). */
  absorb(fact: TeamFact): void;
  /** The current local JSON of a fact changed while Redis was down (null: nothing to send). */
  current(kind: string, name: string): { json: string; at: number } | null;
  log(line: string): void;
}

export function openTeamBus(deps: TeamBusDeps): TeamBus {
  const options = { ...FAST_FAIL_OPTIONS, retryStrategy: (n: number) => Math.min(n * 100, 1_000) };
  const cmd: Redis = new deps.Ctor(deps.url, options);
  const sub: Redis = new deps.Ctor(deps.url, { ...options, enableOfflineQueue: true });
  const channel = `${deps.prefix}team:facts`;
  const hashOf = (kind: string): string => `${deps.prefix}team:${kind}`;
  const dirty = new Set<string>();
  let up = false;
  let closed = false;

  const send = async (kind: string, name: string, json: string, at: number): Promise<void> => {
    const fact: TeamFact = { kind, name, json, at, from: deps.instanceId };
    const text = JSON.stringify(fact);
    await cmd.multi().hset(hashOf(kind), name, text).publish(channel, text).exec();
  };

  const receive = (text: string): void => {
    const fact = parseFact(text);
    if (fact && fact.from !== deps.instanceId && deps.kinds.includes(fact.kind)) deps.absorb(fact);
  };

  const absorbAll = async (): Promise<void> => {
    for (const kind of deps.kinds) {
      const all = await cmd.hgetall(hashOf(kind));
      for (const text of Object.values(all)) receive(text);
    }
  };

  /** On (re)connect: absorb the team's facts, then send what changed here while Redis was away. */
  const resync = async (): Promise<void> => {
    await absorbAll();
    for (const key of [...dirty]) {
      // Only the kind ends at the first NUL: a name may hold more (lockout names do).
      const cut = key.indexOf('\u0000');
      const kind = key.slice(0, cut);
      const name = key.slice(cut + 1);
      const now = deps.current(kind, name);
      if (now) await send(kind, name, now.json, now.at);
      dirty.delete(key);
    }
    up = true;
  };

  cmd.on('error', () => undefined);
  sub.on('error', () => undefined);
  cmd.on('ready', () => {
    resync().then(
      () => deps.log(`[team] facts shared over redis (${deps.kinds.join(', ')})`),
      (error: unknown) => deps.log(`[team] resync failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  });
  cmd.on('close', () => {
    if (up && !closed) deps.log('[team] redis lost; keeping local state and merging back when it returns');
    up = false;
  });
  sub.on('message', (_channel: string, text: string) => receive(text));
  // The two connections come back at different moments: a fact announced before the subscription
  // took hold is in the hash, so it is read once more (merges are idempotent) when the command side is ready.
  sub.on('ready', () => {
    sub
      .subscribe(channel)
      .then(() => (cmd.status === 'ready' ? absorbAll() : undefined))
      .catch(() => undefined);
  });
  cmd.connect().catch(() => undefined);
  sub.connect().catch(() => undefined);

  return {
    publish(kind, name, json, at) {
      if (!up) return void dirty.add(`${kind}\u0000${name}`);
      send(kind, name, json, at).catch(() => dirty.add(`${kind}\u0000${name}`));
    },
    isUp: () => up,
    client: () => (up ? cmd : null),
    async close() {
      closed = true;
      up = false;
      cmd.disconnect();
      sub.disconnect();
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
  };
}

function parseFact(text: string): TeamFact | null {
  try {
    const v: unknown = JSON.parse(text);
    if (typeof v !== 'object' || v === null) return null;
    const f = v as Record<string, unknown>;
    const { kind, name, json, at, from } = f;
    if (typeof kind !== 'string' || typeof name !== 'string' || typeof json !== 'string') return null;
    if (typeof at !== 'number' || typeof from !== 'string') return null;
    return { kind, name, json, at, from };
  } catch {
    return null;
  }
}
