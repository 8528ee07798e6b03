import { randomUUID } from 'node:crypto';
import { fromRow } from '../resilience/cooldown/health-repo';
import type { BreakerRowStore, HealthRowStore, StoredHealthRow } from '../resilience/resilience-stores';
import type { ResilienceRuntime } from '../resilience/resilience-runtime';
import { restoreBreakerState } from '../resilience/breaker/breaker-state';
import { loadIoredis } from '../quota/store/store-factory';
import { maskRedisUrl } from '../quota/store/redis-url';
import type { RedisCtor } from '../quota/store/redis-link';
import type { RefreshOwnership } from '../providers/claude-oauth/oauth-tokens';
import type { AffinityRepo } from '../routing/affinity/pin-store';
import type { LeasesRepo } from '../routing/leases/lease-store';
import { sweepStaleFacts } from './fact-sweep';
import { createLeaseShare, leaseFactStale } from './lease-share';
import { pinFactStale } from './pin-merge';
import { createPinShare } from './pin-share';
import { createRefreshLock } from './refresh-lock';
import { openTeamBus, type TeamBus, type TeamFact } from './team-bus';
import { createLockoutShare, LOCKOUT, type LockoutEngine } from './lockout-share';
import { CLAUDE_USAGE, createUsageShare, type UsageEngine } from './usage-share';

/**
 * What a Leeway instance shares with its team over the quota store's Redis (issue 24 §4): each
 * connection's cooldown and terminal state (write-through: SQLite first, then Redis), provider
 * breakers, model lockouts (`lockout-share.ts`), Claude usage windows (`usage-share.ts`), session
 * pins (`pin-share.ts`) and leases (`lease-share.ts`). Facts
 * travel by connection name; each instance maps them to its own connection ids.
 */
export interface TeamShareDeps {
  /** The quota store's Redis (one URL for the team); null: no team, everything stays local. */
  redis(): { url: string; prefix: string } | null;
  idOf(name: string): string | null;
  nameOf(connectionId: string): string | null;
  /** Local keys by name and back, for session pins and leases (absent: those stay local). */
  keyIdOf?(name: string): string | null;
  keyNameOf?(id: string): string | null;
  log(line: string): void;
  loadRedis?: () => Promise<RedisCtor | null>;
  /** The clock that decides whether a shared lockout has expired (default Date.now). */
  now?: () => number;
}

export interface TeamShare {
  /** The health rows, written through to the team. */
  wrapHealth(rows: HealthRowStore): HealthRowStore;
  /** The provider breaker rows, written through to the team. */
  wrapBreakers(rows: BreakerRowStore): BreakerRowStore;
  /** Connects (when a Redis is configured); absorbed facts go to the engine, the pin store and the lease book. */
  start(engine: Absorbers, stores?: TeamStores): Promise<void>;
  /** The Claude runtime (built after the bus): its usage windows are shared from now on. */
  attachClaude(claude: UsageEngine): void;
  /** Whether facts reach Redis right now. */
  isUp(): boolean;
  /** One refresh-token owner per Claude connection across the team; rejects while Redis is unreachable. */
  refreshOwnership: RefreshOwnership;
  close(): Promise<void>;
}

const HEALTH = 'health';
const BREAKER = 'breaker';
const PIN = 'pin';
const LEASE = 'lease';
/** How often stale pin and lease facts are deleted from the team's hashes. */
const SWEEP_EVERY_MS = 10 * 60_000;

type Absorbers = Pick<ResilienceRuntime, 'absorbHealth' | 'absorbBreaker'> & LockoutEngine;

/** Session pins and leases (issue 24 §4), shared when given. */
export interface TeamStores {
  pins: AffinityRepo;
  leases: LeasesRepo;
}

export function createTeamShare(deps: TeamShareDeps): TeamShare {
  const instanceId = randomUUID();
  // The last JSON written per kind and name: what is sent back after an outage.
  const latest = new Map<string, { json: string; at: number }>();
  let bus: TeamBus | null = null;
  let sweeper: NodeJS.Timeout | null = null;
  let absorbing = false;
  const prefix = (): string => deps.redis()?.prefix ?? 'leeway:';

  /** Runs an absorb with publishing off: a fact just taken from the team is not sent back (no echo). */
  const quietly = <T>(run: () => T): T => {
    const was = absorbing;
    absorbing = true;
    try {
      return run();
    } finally {
      absorbing = was;
    }
  };

  const absorbWith =
    (engine: Absorbers, stores: TeamStores | undefined) =>
    (fact: TeamFact): void => {
      if (stores && absorbStored(stores, fact)) return;
      if (fact.kind === LOCKOUT) return quietly(() => lockouts.absorb(engine, fact.name, fact.json));
      if (fact.kind === CLAUDE_USAGE) return usage.absorb(fact.name, fact.json);
      if (fact.kind === BREAKER) {
        const parsed = parseJson(fact.json);
        if (parsed !== undefined) quietly(() => engine.absorbBreaker(fact.name, restoreBreakerState(parsed)));
        return;
      }
      const id = deps.idOf(fact.name);
      const row = parseRow(fact.json);
      if (id === null || row === null) return;
      quietly(() => engine.absorbHealth(id, fromRow({ ...row, connectionId: id })));
    };

  const share = (kind: string, name: string, json: string, at: number): void => {
    latest.set(`${kind}\u0000${name}`, { json, at });
    if (!absorbing) bus?.publish(kind, name, json, at);
  };
  const names = { idOf: deps.idOf, nameOf: deps.nameOf, share };
  const lockouts = createLockoutShare({ ...names, now: deps.now ?? Date.now });
  const usage = createUsageShare({ ...names, quietly });
  const keyed = {
    ...names,
    keyIdOf: deps.keyIdOf ?? (() => null),
    keyNameOf: deps.keyNameOf ?? (() => null),
    now: deps.now ?? Date.now,
  };
  const pinShare = createPinShare({ ...keyed, share: (name, json, at) => share(PIN, name, json, at) });
  const leaseShare = createLeaseShare({ ...keyed, share: (name, json, at) => share(LEASE, name, json, at) });

  /** A pin or lease fact into its store; false for other kinds. */
  function absorbStored(stores: TeamStores, fact: TeamFact): boolean {
    if (fact.kind === PIN) quietly(() => pinShare.absorb(fact.json, stores.pins));
    if (fact.kind !== LEASE) return fact.kind === PIN;
    const losers = quietly(() => leaseShare.absorb(fact.json, stores.leases));
    // A conflict this instance's lease lost is news for the team (outside `quietly`).
    leaseShare.heard(new Map(losers.map((lease) => [lease.ownerHash, lease])));
    return true;
  }

  const sweep = async (): Promise<void> => {
    const client = bus?.client() ?? null;
    if (client === null) return;
    const now = (deps.now ?? Date.now)();
    await sweepStaleFacts(client, `${prefix()}team:${PIN}`, (json) => pinFactStale(json, now));
    await sweepStaleFacts(client, `${prefix()}team:${LEASE}`, (json) => leaseFactStale(json, now));
  };

  return {
    wrapHealth: (rows) => ({
      loadAll: () => rows.loadAll(),
      save(row, now) {
        rows.save(row, now);
        const name = deps.nameOf(row.connectionId);
        if (name !== null) share(HEALTH, name, JSON.stringify(row), now);
      },
    }),
    // Breakers are keyed by provider id (`kind@origin`), the same on every instance.
    wrapBreakers: (rows) => ({
      loadAll: () => rows.loadAll(),
      save(provider, json, now) {
        rows.save(provider, json, now);
        share(BREAKER, provider, json, now);
      },
      remove: (provider) => rows.remove(provider),
    }),
    async start(engine, stores) {
      const target = deps.redis();
      if (target === null) return;
      lockouts.watch(engine);
      stores?.pins.watch(pinShare.heard);
      stores?.leases.watch(leaseShare.heard);
      if (stores) sweeper = setInterval(() => void sweep().catch(() => undefined), SWEEP_EVERY_MS).unref();
      const Ctor = await (deps.loadRedis ?? loadIoredis)();
      if (!Ctor) return deps.log('[team] sharing needs the ioredis package, which is not installed');
      bus = openTeamBus({
        Ctor,
        url: target.url,
        prefix: target.prefix,
        instanceId,
        kinds: [HEALTH, BREAKER, LOCKOUT, CLAUDE_USAGE, ...(stores ? [PIN, LEASE] : [])],
        absorb: absorbWith(engine, stores),
        current: (kind, name) => latest.get(`${kind}\u0000${name}`) ?? null,
        log: (line) => deps.log(line.split(target.url).join(maskRedisUrl(target.url))),
      });
    },
    attachClaude: (claude) => {
      if (deps.redis() !== null) usage.attach(claude);
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
      if (sweeper) clearInterval(sweeper);
      await bus?.close();
      bus = null;
    },
  };
}

function parseJson(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
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
