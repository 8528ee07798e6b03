import { createChangeFeed, type ChangeFeed } from '../kernel/change-feed';
import type { Database } from './open';

/**
 * What a committed write changed (issue 22): the sources of the runtime catalog and of the quota
 * engine's index. The catalog service (services/catalog-service.ts) rebuilds from them; nobody
 * else has to remember which reload follows which write.
 */
export type StorageChange = 'connections' | 'combos' | 'routes' | 'keys' | 'quotaPools' | 'discoveredModels';

export type StorageChanges = ChangeFeed<StorageChange>;

export interface ChangeTracking {
  /** Repositories emit here after a write that changed rows; listeners subscribe. */
  changes: StorageChanges;
  /**
   * Runs `work` in one transaction: its writes land together or not at all, and the changes they
   * announced are told once it committed (dropped when it rolled back).
   */
  atomically<T>(work: () => T): T;
}

export function createChangeTracking(db: Database): ChangeTracking {
  const feed = createChangeFeed<StorageChange>();
  const held = new Set<StorageChange>();
  let depth = 0;
  return {
    changes: {
      emit(topic) {
        if (depth > 0) held.add(topic);
        else feed.emit(topic);
      },
      subscribe: feed.subscribe,
    },
    atomically(work) {
      depth += 1;
      let committed = false;
      try {
        const result = db.transaction(work)();
        committed = true;
        return result;
      } finally {
        depth -= 1;
        if (depth === 0) {
          const topics = [...held];
          held.clear();
          if (committed) for (const topic of topics) feed.emit(topic);
        }
      }
    },
  };
}
