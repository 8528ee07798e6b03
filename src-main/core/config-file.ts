import { existsSync } from 'node:fs';
import { fail, ok, type Result } from '../../src-shared/contract/errors';
import { describeAppliedConfig } from '../config/applied-line';
import { applyConfig } from '../config/apply-config';
import { loadConfig, storedNamesOf, type ConfigProblem, type LoadedConfig } from '../config/load-config';
import { checkDataDirFree } from '../data-dir/data-dir-lock';
import type { Storage } from '../db/storage';
import type { EnvVars } from '../kernel/env-vars';

function configRefusal(file: string, problems: ConfigProblem[]): Result<never> {
  const lines = problems.map((p) => `  ${p.path}: ${p.message}`).join('\n');
  return fail('invalid_input', `Invalid config file ${file}:\n${lines}`, { details: { problems } });
}

export interface StartChecks {
  dataDir: string;
  dbFile: string;
  adminToken?: string;
  configFile?: string;
  env: EnvVars;
}

/**
 * Whatever can refuse a start without writing goes first, so a failed start leaves no data dir or
 * file behind: another instance on the directory, a short admin token, and (with no database yet,
 * so no stored connection a combo could name) a config file judged alone — returned for the apply.
 */
export function checkStart(checks: StartChecks): Result<LoadedConfig | null> {
  const free = checkDataDirFree(checks.dataDir);
  if (!free.ok) return free;
  if (checks.adminToken && checks.adminToken.length < 16) {
    return fail('invalid_input', 'LEEWAY_ADMIN_TOKEN must be at least 16 characters');
  }
  if (!checks.configFile || existsSync(checks.dbFile)) return ok(null);
  const loaded = loadConfig(checks.configFile, new Set(), undefined, checks.env);
  return loaded.ok ? ok(loaded.value) : configRefusal(checks.configFile, loaded.problems);
}

/** `--config`: upserts the file into storage (checked against what is stored, unless already checked). */
export function applyConfigFile(
  storage: Storage,
  file: string,
  checked: LoadedConfig | null,
  deps: { env: EnvVars; now: number; info(line: string): void; secret(value: string): void },
): Result<void> {
  const loaded = checked
    ? { ok: true as const, value: checked }
    : loadConfig(file, new Set(storage.connections.list().map((c) => c.name)), storedNamesOf(storage), deps.env);
  if (!loaded.ok) return configRefusal(file, loaded.problems);
  const applied = applyConfig(storage, loaded.value, deps.now);
  if (!applied.ok) return applied;
  deps.info(describeAppliedConfig(applied.value, file));
  for (const key of loaded.value.keys) deps.secret(key.key);
  return ok(undefined);
}
