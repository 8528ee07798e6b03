import type { ConnectionView } from '../../src-shared/domain/connection';
import {
  currentModels,
  modelsChanged,
  nextEntry,
  type DiscoveredModel,
  type DiscoveryEntry,
  type ListOutcome,
} from './models-discovery';

/** Where discovered lists persist (db/discovered-models-repo.ts implements it). */
export interface DiscoveredModelsRepo {
  loadAll(): DiscoveryEntry[];
  save(entry: DiscoveryEntry): void;
}

/** Discovered lists in memory (read by every catalog build), written through to SQLite. */
export interface DiscoveryStore {
  /** Reads what the last run persisted; before this the store is empty. */
  load(repo: DiscoveredModelsRepo): void;
  entry(connectionId: string): DiscoveryEntry | undefined;
  /** The ids to list for this connection as configured now (none once it names its own models). */
  modelsFor(view: ConnectionView): readonly DiscoveredModel[];
  /** Records an attempt; true when the listed models changed (the catalog must be rebuilt). */
  record(view: ConnectionView, outcome: ListOutcome, now: number): boolean;
  /** Stops writing (the database is closing); memory stays readable. */
  detach(): void;
}

export function createDiscoveryStore(log: (line: string) => void = () => undefined): DiscoveryStore {
  const entries = new Map<string, DiscoveryEntry>();
  let repo: DiscoveredModelsRepo | null = null;
  return {
    load(from) {
      repo = from;
      entries.clear();
      for (const e of from.loadAll()) entries.set(e.connectionId, e);
    },
    entry: (id) => entries.get(id),
    modelsFor: (view) => currentModels(view, entries.get(view.id)),
    record(view, outcome, now) {
      const before = entries.get(view.id);
      const after = nextEntry(before, { id: view.id, baseUrl: view.effectiveBaseUrl }, outcome, now);
      entries.set(view.id, after);
      try {
        repo?.save(after);
      } catch (error) {
        // A connection removed meanwhile (foreign key) or a closing database: memory still serves.
        log(`Leeway: could not save the models of ${view.name} (${(error as Error).message})`);
      }
      return modelsChanged(before?.baseUrl === after.baseUrl ? before : undefined, after);
    },
    detach() {
      repo = null;
    },
  };
}
