import { fail, ok, type Result } from '../../src-shared/contract/errors';
import type { CombosRepo } from '../db/combos-repo';
import type { ConnectionsRepo } from '../db/connections-repo';
import type { KeysRepo } from '../db/keys-repo';
import type { Database } from '../db/open';
import type { LoadedConfig } from './load-config';

export interface ConfigRepos {
  db: Database;
  connections: ConnectionsRepo;
  keys: KeysRepo;
  combos: CombosRepo;
}

class ConfigApplyError extends Error {}

/** Upserts a validated config by name in one transaction: all of it is written, or none. */
export function applyConfig(repos: ConfigRepos, config: LoadedConfig, now: number): Result<{ connections: number; keys: number; combos: number }> {
  const run = repos.db.transaction(() => {
    for (const draft of config.connections) {
      if (!draft.secret && !repos.connections.getByName(draft.name) && draft.kind !== 'openai-compatible') {
        throw new ConfigApplyError(`connections: "${draft.name}" needs ${draft.kind === 'claude-oauth' ? 'accessToken' : 'apiKey'}`);
      }
      repos.connections.upsert(draft, now);
    }
    for (const key of config.keys) {
      const result = repos.keys.upsertByName(key.name, key.key, now);
      if (!result.ok) throw new ConfigApplyError(`keys: "${key.name}": ${result.error.message}`);
    }
    for (const combo of config.combos) {
      if (repos.connections.getByName(combo.name)) throw new ConfigApplyError(`combos: "${combo.name}" is already a connection name`);
      repos.combos.upsert(combo, now);
    }
  });
  try {
    run();
    return ok({ connections: config.connections.length, keys: config.keys.length, combos: config.combos.length });
  } catch (error) {
    if (error instanceof ConfigApplyError) return fail('invalid_input', error.message);
    throw error;
  }
}
