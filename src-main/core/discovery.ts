/**
 * Model discovery wired into the core (issue 13 §5): connections that serve any model are asked
 * for their upstream's own list on start, on "Test", when connections change and, through one
 * unref'd timer, hourly; lists are cached in memory and in SQLite, and a failure keeps the last one.
 * The decisions (who is due, what a failure keeps) are the pure functions of models-discovery.ts.
 */
import type { ConnectionTestResult } from '../../src-shared/domain/connection-test';
import type { EventBus } from '../kernel/event-bus';
import type { DiscoveredModelsRepo } from '../providers/models-discovery-store';
import { isDiscoverable, isDue, type DiscoveredModel, type ListOutcome } from '../providers/models-discovery';
import { describeListingFailure, listUpstreamModels, type UpstreamListing } from '../providers/models-discovery-fetch';
import { createDiscoveryStore } from '../providers/models-discovery-store';
import { runConnectionTest } from '../providers/test-connection';
import type { UpstreamPools } from '../providers/upstream-pools';
import type { Catalog, RuntimeConnection } from '../kernel/catalog';
import type { ConnectionView } from '../../src-shared/domain/connection';

/** How often the timer looks for due lists; each list itself is refreshed hourly (REFRESH_INTERVAL_MS). */
export const DISCOVERY_TICK_MS = 5 * 60_000;

export interface ModelDiscoveryDeps {
  pools: UpstreamPools;
  catalog(): Catalog;
  /** Called after a connection's listed models changed: announced to the catalog service, which rebuilds. */
  changed(): void;
  log(line: string): void;
  now(): number;
  /** Asks upstreams on start, hourly and on connection changes; off: only "Test" asks (tests, offline use). */
  automatic: boolean;
}

export interface ModelDiscovery {
  /** For the catalog build: the discovered models of a connection as configured now. */
  modelsFor(view: ConnectionView): readonly DiscoveredModel[];
  /** Loads the persisted lists (announced as a change: the catalog follows), then starts the automatic refreshes. */
  start(repo: DiscoveredModelsRepo, events: EventBus): void;
  /** The "Test" action: lists the models and, for a connection serving any model, keeps them. */
  test(name: string): Promise<ConnectionTestResult | null>;
  /** Refreshes every due list now; resolves when done, never rejects. */
  refresh(): Promise<void>;
  stop(): void;
}

function outcomeOf(connection: RuntimeConnection, listing: UpstreamListing): ListOutcome {
  return listing.kind === 'listed'
    ? { kind: 'listed', models: listing.models }
    : { kind: 'failed', error: describeListingFailure(connection, listing) };
}

export function createModelDiscovery(deps: ModelDiscoveryDeps): ModelDiscovery {
  const store = createDiscoveryStore(deps.log);
  let stopped = true;
  let abort = new AbortController();
  let timer: NodeJS.Timeout | null = null;
  let unsubscribe: (() => void) | null = null;
  let running: Promise<void> | null = null;
  let again = false;

  const askable = (c: RuntimeConnection): boolean => c.secret !== null && c.adapter.pathFor('models') !== null;

  function record(connection: RuntimeConnection, listing: UpstreamListing): void {
    if (stopped || listing.kind === 'unsupported') return;
    const previousError = store.entry(connection.view.id)?.lastError ?? null;
    const outcome = outcomeOf(connection, listing);
    const changed = store.record(connection.view, outcome, deps.now());
    // One line when a list starts failing (or fails differently), not one per retry.
    if (outcome.kind === 'failed' && outcome.error !== previousError)
      deps.log(`Leeway: could not list the models of ${connection.view.name}: ${outcome.error}; keeping the last list`);
    if (changed) deps.changed();
  }

  async function refreshDue(): Promise<void> {
    const now = deps.now();
    const due = deps.catalog().connections.filter((c) => askable(c) && isDue(c.view, store.entry(c.view.id), now));
    // One upstream at a time: discovery is background work and must not compete with traffic.
    for (const connection of due) {
      if (stopped) return;
      record(connection, await listUpstreamModels(deps.pools, connection, { signal: abort.signal }));
    }
  }

  function refresh(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await refreshDue();
        } while (again && !stopped);
      } catch (error) {
        // Only a bug lands here; discovery never takes the core down.
        deps.log(`Leeway: model discovery failed (${(error as Error).message})`);
      } finally {
        running = null;
      }
    })();
    return running;
  }

  return {
    modelsFor: (view) => store.modelsFor(view),
    start(repo, events) {
      stopped = false;
      abort = new AbortController();
      store.load(repo);
      // A restart lists what the last run found before the first refresh answers.
      deps.changed();
      if (!deps.automatic) return;
      void refresh();
      timer = setInterval(() => void refresh(), DISCOVERY_TICK_MS);
      timer.unref();
      unsubscribe = events.subscribe((event) => {
        // On the next turn: the catalog has followed the connection's change event by then.
        if (event.type === 'connections.changed') setImmediate(() => void refresh());
      });
    },
    async test(name) {
      const connection = deps.catalog().byName.get(name);
      if (!connection) return null;
      const run = await runConnectionTest(deps.pools, connection, deps.now);
      if (isDiscoverable(connection.view)) record(connection, run.listing);
      return run.result;
    },
    refresh,
    stop() {
      stopped = true;
      abort.abort();
      if (timer) clearInterval(timer);
      timer = null;
      unsubscribe?.();
      unsubscribe = null;
      store.detach();
    },
  };
}
