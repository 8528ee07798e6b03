import { fail, ok, type Result } from '../../src-shared/contract/errors';
import type { CombosRepo } from '../db/combos-repo';
import { createHash } from 'node:crypto';
import type { ConnectionDraft, ConnectionSecret } from '../../src-shared/domain/connection';
import type { ConnectionsRepo, StoredConnection } from '../db/connections-repo';
import type { KeysRepo } from '../db/keys-repo';
import type { Database } from '../db/open';
import type { RoutesRepo } from '../db/routes-repo';
import type { QuotaPoolsRepo } from '../quota/quota-ports';
import type { LoadedConfig } from './load-config';

export interface ConfigRepos {
  db: Database;
  connections: ConnectionsRepo;
  keys: KeysRepo;
  combos: CombosRepo;
  routes: RoutesRepo;
  quotaPools: QuotaPoolsRepo;
}

class ConfigApplyError extends Error {}

/** What Headroom learns about a Claude connection at run time and a config file does not repeat. */
const LEARNED_KEYS = ['organizationUUID', 'scopes', 'subscriptionType'] as const;

function fingerprint(secret: ConnectionSecret): string {
  const material = secret.type === 'oauth' ? `${secret.accessToken}\n${secret.refreshToken ?? ''}` : secret.apiKey;
  return createHash('sha256').update(material).digest('hex').slice(0, 16);
}

/**
 * Claude OAuth tokens rotate at every refresh, so the file's copy goes stale: re-applying it at the
 * next start would put back a refresh token the server already retired (invalid_grant). The file's
 * tokens are applied only when they changed since they were last applied (a fingerprint, not the
 * tokens, is remembered), and values learned at run time survive.
 */
function keepRotatedOAuth(draft: ConnectionDraft, existing: StoredConnection | null): ConnectionDraft {
  const psd: Record<string, unknown> = { ...draft.providerSpecificData };
  for (const key of LEARNED_KEYS)
    if (psd[key] === undefined && existing?.providerSpecificData[key] !== undefined)
      psd[key] = existing.providerSpecificData[key];
  if (!draft.secret) return { ...draft, providerSpecificData: psd };
  const fp = fingerprint(draft.secret);
  psd.configSecretFingerprint = fp;
  const unchanged = existing?.secret && existing.providerSpecificData.configSecretFingerprint === fp;
  if (unchanged) {
    const { secret: _fromFile, ...rest } = draft;
    return { ...rest, providerSpecificData: psd };
  }
  return { ...draft, providerSpecificData: psd };
}

/** Upserts a validated config by name in one transaction: all of it is written, or none. */
export function applyConfig(
  repos: ConfigRepos,
  config: LoadedConfig,
  now: number,
): Result<{ connections: number; keys: number; combos: number; routes: number | null; pools: number; plans: number }> {
  const run = repos.db.transaction(() => {
    for (const given of config.connections) {
      const existing = repos.connections.getByName(given.name);
      if (!given.secret && !existing && given.kind !== 'openai-compatible') {
        throw new ConfigApplyError(
          `connections: "${given.name}" needs ${given.kind === 'claude-oauth' ? 'accessToken' : 'apiKey'}`,
        );
      }
      repos.connections.upsert(given.kind === 'claude-oauth' ? keepRotatedOAuth(given, existing) : given, now);
    }
    for (const key of config.keys) {
      const access = { scopes: key.scopes, allowedConnections: key.allowedConnections };
      const result = repos.keys.upsertByName(key.name, key.key, now, access);
      if (!result.ok) throw new ConfigApplyError(`keys: "${key.name}": ${result.error.message}`);
    }
    for (const combo of config.combos) {
      if (repos.connections.getByName(combo.name))
        throw new ConfigApplyError(`combos: "${combo.name}" is already a connection name`);
      repos.combos.upsert(combo, now);
    }
    if (config.routes) repos.routes.replace(config.routes);
    // After keys and connections, so a pool may name what this same file defines.
    for (const pool of config.pools) {
      const saved = repos.quotaPools.upsert(pool, now);
      if (!saved.ok) throw new ConfigApplyError(`pools: "${pool.name}": ${saved.error.message}`);
    }
    for (const plan of config.plans) {
      const connection = repos.connections.getByName(plan.connection);
      if (!connection) throw new ConfigApplyError(`plans: no connection named "${plan.connection}"`);
      repos.quotaPools.setPlan(connection.id, plan.dimensions, now);
    }
  });
  try {
    run();
    return ok({
      connections: config.connections.length,
      keys: config.keys.length,
      combos: config.combos.length,
      routes: config.routes?.length ?? null,
      pools: config.pools.length,
      plans: config.plans.length,
    });
  } catch (error) {
    if (error instanceof ConfigApplyError) return fail('invalid_input', error.message);
    throw error;
  }
}
