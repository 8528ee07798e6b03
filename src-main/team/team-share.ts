import { randomUUID } from 'node:crypto';
import { fromRow } from '../resilience/cooldown/health-repo';
import type { ConnectionHealth } from '../resilience/cooldown/connection-health';
import type { HealthRowStore, StoredHealthRow } from '../resilience/resilience-stores';
import { loadIoredis } from '../quota/store/store-factory';
import { maskRedisUrl } from '../quota/store/redis-url';
import type { RedisCtor } from '../quota/store/redis-link';
import type { RefreshOwnership } from '../providers/claude-oauth/oauth-tokens';
import { createRefreshLock } from './refresh-lock';
import { openTeamBus, type TeamBus, type TeamFact } from './team-bus';

/**
 * What a Leeway instance shares with its team over the quota store's Redis (issue 24 §4): today
 * each connection's cooldown and terminal state (write-through: SQLite first, then Redis). Facts
 * travel by connection name; each instance maps them to its own connection ids.
 */
export interface TeamShareDeps {
  /** The quota store's Redis (one URL for the team); null: no team, everything stays local. */
  redis(): { url: string; prefix: string } | null;
  idOf(name: string): string | null;
  nameOf(connectionId: string): string | null;
  log(line: string): void;
  loadRedis?: () => Promise<RedisCtor | null>;
}

export interface TeamShare {
  /** The health rows, written through to the team. */
  wrapHealth(rows: HealthRowStore): HealthRowStore;
  /** Connects (when a Redis is configured); absorbed facts go to `absorbHealth`. */
  start(absorbHealth: (connectionId: string, remote: ConnectionHealth) => boolean): Promise<void>;
  /** Whether facts reach Redis right now. */
  isUp(): boolean;
  /** One refresh-token owner per Claude connection across the team; rejects while Redis is unreachable. */
  refreshOwnership: RefreshOwnership;
  close(): Promise<void>;
}

const HEALTH = 'health';

export function createTeamShare(deps: TeamShareDeps): TeamShare {
  const instanceId = randomUUID();
  const latest = new Map<string, { row: StoredHealthRow; at: number }>();
  let bus: TeamBus | null = null;
  let absorbing = false;
  const prefix = (): string => deps.redis()?.prefix ?? 'leeway:';

  const absorbWith =
    (absorbHealth: (id: string, remote: ConnectionHealth) => boolean) =>
    (fact: TeamFact): void => {
      const id = deps.idOf(fact.name);
      if (id === null) return;
      const row = parseRow(fact.json);
      if (row === null) return;
      absorbing = true;
      try {
        absorbHealth(id, fromRow({ ...row, connectionId: id }));
      } finally {
        absorbing = false;
      }
    };

  return {
    wrapHealth: (rows) => ({
      loadAll: () => rows.loadAll(),
      save(row, now) {
        rows.save(row, now);
        const name = deps.nameOf(row.connectionId);
        if (name === null) return;
        latest.set(name, { row, at: now });
        // A fact just taken from the team is not sent back (no echo between instances).
        if (!absorbing) bus?.publish(HEALTH, name, JSON.stringify(row), now);
      },
    }),
    async start(absorbHealth) {
      const target = deps.redis();
      if (target === null) return;
      const Ctor = await (deps.loadRedis ?? loadIoredis)();
      if (!Ctor) return deps.log('[team] sharing needs the ioredis package, which is not installed');
      bus = openTeamBus({
        Ctor,
        url: target.url,
        prefix: target.prefix,
        instanceId,
        kinds: [HEALTH],
        absorb: absorbWith(absorbHealth),
        current: (_kind, name) => {
          const last = latest.get(name);
          return last ? { json: JSON.stringify(last.row), at: last.at } : null;
        },
        log: (line) => deps.log(line.split(target.url).join(maskRedisUrl(target.url))),
      });
    },
    isUp: () => bus?.isUp() ?? false,
    refreshOwnership: {
      acquire(connectionId) {
        const client = bus?.client() ?? null;
        const name = deps.nameOf(connectionId);
        if (client === null || name === null) return Promise.reject(new Error('no team redis'));
        return createRefreshLock(client, prefix()).acquire(name);
      },
    },
    async close() {
      await bus?.close();
      bus = null;
    },
  };
}

function parseRow(json: string): StoredHealthRow | null {
  try {
    const v: unknown = JSON.parse(json);
    if (typeof v !== 'object' || v === null) return null;
    const r = v as Partial<StoredHealthRow>;
    if (typeof r.testStatus !== 'string' || typeof r.extraJson !== 'string') return null;
    return {
      connectionId: '',
      rateLimitedUntil: typeof r.rateLimitedUntil === 'number' ? r.rateLimitedUntil : null,
      testStatus: r.testStatus,
      lastError: typeof r.lastError === 'string' ? r.lastError : null,
      lastErrorType: typeof r.lastErrorType === 'string' ? r.lastErrorType : null,
      errorCode: typeof r.errorCode === 'string' ? r.errorCode : null,
      backoffLevel: typeof r.backoffLevel === 'number' ? r.backoffLevel : 0,
      extraJson: r.extraJson,
    };
  } catch {
    return null;
  }
}
