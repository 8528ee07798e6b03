import { Gauge, type Registry } from 'prom-client';
import type { CooldownSnapshot } from '../../src-shared/domain/cooldown';
import type { QuotaPoolUsage } from '../../src-shared/domain/quota';

/** One connection's request queue, by name. */
export interface QueueDepth {
  connection: string;
  queued: number;
  inFlight: number;
}

/** What a scrape reads, once per scrape: nothing here runs per request. */
export interface ScrapeSources {
  /** The resilience engine's snapshot (null before the core started). */
  snapshot(at: number): CooldownSnapshot | null;
  quota(at: number): Promise<readonly QuotaPoolUsage[]>;
  queues(at: number): readonly QueueDepth[];
}

interface Scrape {
  snapshot: CooldownSnapshot | null;
  quota: readonly QuotaPoolUsage[];
  queues: readonly QueueDepth[];
}

const BREAKER_STATES = ['CLOSED', 'DEGRADED', 'OPEN', 'HALF_OPEN'] as const;

/**
 * The gauges read at scrape time (issue 13 §2): cooldowns, breakers, lockouts, quota usage per
 * pool and key, queue depth. `read(at)` gathers the sources once; each gauge's collect() then fills
 * itself from that, dropping series that no longer exist (a cleared cooldown, a removed pool).
 */
export function createStateMetrics(registry: Registry, sources: ScrapeSources) {
  let scrape: Scrape = { snapshot: null, quota: [], queues: [] };
  const registers = [registry];
  const gauge = <L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    fill: (set: (labels: Record<L, string>, value: number) => void, s: Scrape) => void,
  ): void => {
    new Gauge<L>({
      name,
      help,
      labelNames,
      registers,
      collect() {
        this.reset();
        fill((labels, value) => this.set(labels, value), scrape);
      },
    });
  };

  gauge(
    'leeway_cooldown_active',
    'Whether the connection is cooling down now (1) or selectable (0)',
    ['connection'],
    (set, s) => {
      for (const c of s.snapshot?.connections ?? []) set({ connection: c.name }, c.retryAfterMs === null ? 0 : 1);
    },
  );
  gauge(
    'leeway_connection_terminal',
    'Whether the connection needs a person (banned, expired, needs sign-in …)',
    ['connection'],
    (set, s) => {
      for (const c of s.snapshot?.connections ?? []) set({ connection: c.name }, c.terminal ? 1 : 0);
    },
  );
  gauge(
    'leeway_breaker_state',
    "Each provider's circuit breaker: 1 for its current state",
    ['provider', 'state'],
    (set, s) => {
      for (const p of s.snapshot?.providers ?? [])
        for (const state of BREAKER_STATES) set({ provider: p.provider, state }, p.state === state ? 1 : 0);
    },
  );
  gauge('leeway_lockouts_active', 'Model lockouts in force, by connection', ['connection'], (set, s) => {
    const counts = new Map<string, number>();
    for (const m of s.snapshot?.models ?? []) counts.set(m.connection, (counts.get(m.connection) ?? 0) + 1);
    for (const [connection, n] of counts) set({ connection }, n);
  });
  const poolDims = ['pool', 'unit', 'window'] as const;
  gauge(
    'leeway_quota_used_ratio',
    "A pool's usage of its window, 0..1 (the provider's report where it gives one)",
    poolDims,
    (set, s) => {
      for (const p of s.quota)
        for (const d of p.dimensions) set({ pool: p.name, unit: d.unit, window: d.window }, d.globalUsedPercent);
    },
  );
  gauge('leeway_quota_consumed', 'Units a pool consumed in its window', poolDims, (set, s) => {
    for (const p of s.quota)
      for (const d of p.dimensions) set({ pool: p.name, unit: d.unit, window: d.window }, d.consumedTotal);
  });
  gauge('leeway_quota_limit', "A pool's limit per window", poolDims, (set, s) => {
    for (const p of s.quota)
      for (const d of p.dimensions) set({ pool: p.name, unit: d.unit, window: d.window }, d.limit);
  });
  const keyDims = ['pool', 'key', 'unit', 'window'] as const;
  gauge('leeway_quota_key_consumed', 'Units a key consumed of its pool in the window', keyDims, (set, s) => {
    for (const p of s.quota)
      for (const d of p.dimensions)
        for (const k of d.keys) set({ pool: p.name, key: k.key, unit: d.unit, window: d.window }, k.consumed);
  });
  gauge('leeway_quota_key_fair_share', "A key's fair share of its pool in the window", keyDims, (set, s) => {
    for (const p of s.quota)
      for (const d of p.dimensions)
        for (const k of d.keys) set({ pool: p.name, key: k.key, unit: d.unit, window: d.window }, k.fairShare);
  });
  gauge('leeway_queue_depth', 'Requests waiting for a connection slot (maxConcurrent)', ['connection'], (set, s) => {
    for (const q of s.queues) set({ connection: q.connection }, q.queued);
  });
  gauge('leeway_requests_in_flight', 'Requests holding a connection slot', ['connection'], (set, s) => {
    for (const q of s.queues) set({ connection: q.connection }, q.inFlight);
  });

  return {
    /** Gathers the sources for the next `registry.metrics()`; a quota store that fails leaves the quota gauges empty. */
    async read(at: number): Promise<void> {
      const quota = await sources.quota(at).catch((): readonly QuotaPoolUsage[] => []);
      scrape = { snapshot: sources.snapshot(at), quota, queues: sources.queues(at) };
    },
  };
}
