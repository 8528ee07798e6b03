import { ok, type Result } from '../../src-shared/contract/errors';
import type { LoadedConfig } from '../config/load-config';
import type { Database } from '../db/open';
import { openStorage, type Storage } from '../db/storage';
import type { EnvVars } from '../kernel/env-vars';
import type { SecretBox } from '../secrets/secret-box';
import { applyConfigFile } from './config-file';
import type { Disposers } from './disposers';
import { ENGINE_STORES } from './engine-stores';
import type { DataDir } from './open-data-dir';

export interface StoreInput {
  now(): number;
  log(line: string): void;
  /** Logs a line that is no warning (the applied config's summary). */
  info(line: string): void;
  /** Redacts a secret from every line from now on (the config file's keys). */
  secret(value: string): void;
  env: EnvVars;
  secretBox?: SecretBox | undefined;
  /** `--config`, and the file as checked before anything was written (null: check against storage). */
  config: { file: string; checked: LoadedConfig | null } | null;
  onDatabase?: ((db: Database) => void) | undefined;
}

/** Storage as the services hold it: open until the stop closes it, or the data directory's loss abandons it. */
export interface OpenStore {
  storage: Storage;
  /** False once closed or abandoned: nothing may read or write it then. */
  isOpen(): boolean;
  /** The data directory is gone: closes without writing what is buffered (a write would go nowhere). */
  abandon(): void;
}

/**
 * Opens and migrates `leeway.sqlite`, pushes its close (which says how many activity rows a disk
 * still refusing kept unwritten), and applies `--config` into it.
 */
export function openStore(dataDir: DataDir, input: StoreInput, disposers: Disposers): Result<OpenStore> {
  const { now, log } = input;
  const opened = openStorage(dataDir.dbFile, dataDir.dir, {
    box: input.secretBox,
    now: now(),
    clock: now,
    engines: ENGINE_STORES,
  });
  if (!opened.ok) return opened;
  const storage = opened.value;
  let open = true;
  disposers.push(() => {
    if (!open) return;
    open = false;
    storage.close();
    // A disk that still refuses at exit keeps the last rows unwritten: say so rather than lose them silently.
    const unwritten = storage.requestLog.held().rows;
    if (unwritten > 0)
      log(
        `Leeway: ${unwritten} activity rows could not be written before exit (${storage.health.status().error ?? 'storage failing'})`,
      );
  });
  input.onDatabase?.(storage.db);
  if (input.config) {
    const { file, checked } = input.config;
    const applied = applyConfigFile(storage, file, checked, { ...input, now: now() });
    if (!applied.ok) return applied;
  }
  return ok({
    storage,
    isOpen: () => open,
    abandon() {
      open = false;
      storage.abandon();
    },
  });
}
