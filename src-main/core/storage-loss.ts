import { watchDataDir } from '../data-dir/data-dir-watch';
import type { DataDir } from './open-data-dir';

/** The data directory's loss, once noticed (issue 8): the message every refusal gives, and when. */
export interface Loss {
  message: string;
  at: number;
}

/**
 * Watches the data directory and the database file while running; the first time one is gone or
 * replaced, every subscriber hears it once (the doors refuse model calls, the services stop writing).
 */
export interface StorageLoss {
  lost(): Loss | null;
  /** Looks now (after a failed write): the reason when storage is lost, else null. */
  check(): string | null;
  /** Heard once, when the loss is noticed; at once when it already was. */
  subscribe(listener: (loss: Loss) => void): void;
  stop(): void;
}

export function watchStorage(
  dataDir: Pick<DataDir, 'dir' | 'dbFile'>,
  deps: { log(line: string): void; now(): number },
): StorageLoss {
  let loss: Loss | null = null;
  const listeners: ((loss: Loss) => void)[] = [];
  const watch = watchDataDir([dataDir.dir, dataDir.dbFile], (reason) => {
    const noticed = {
      message: `Storage unavailable: ${reason}; Leeway stopped writing (request log, settings, cooldowns) — restart it once the data directory is back`,
      at: deps.now(),
    };
    loss = noticed;
    deps.log(`Leeway: DATA DIRECTORY LOST: ${reason}. Nothing is saved any more; restart Leeway.`);
    for (const listener of listeners) listener(noticed);
  });
  return {
    lost: () => loss,
    check: () => watch.check(),
    subscribe(listener) {
      if (loss !== null) listener(loss);
      else listeners.push(listener);
    },
    stop: () => watch.stop(),
  };
}
