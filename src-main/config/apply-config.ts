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
import { capabilitiesOf } from '../kernel/provider-capabilities';

export interface ConfigRepos {
  db: Database;
  connections: ConnectionsRepo;
  keys: KeysRepo;
  combos: CombosRepo;
  routes: RoutesRepo;
  quotaPools: QuotaPoolsRepo;
}

class ConfigApplyError extends Error {}

/** What Leeway learns about a Claude connection at run time and a config file does not repeat. */
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

/** What one apply did: entries per kind the file named, and how many of them already matched the store. */
export interface AppliedConfig {
  connections: number;
  keys: number;
  combos: number;
  /** Routes now stored, or null when the file has no `routes` (the stored list stayed). */
  routes: number | null;
  pools: number;
  plans: number;
  /** Connections, keys, combos, pools and plans whose stored form the apply did not change. */
  unchanged: number;
}

/** A stored entity without its timestamps, as text: equal before and after an upsert means unchanged. */
function contentOf(entity: object | null | undefined): string | null {
  if (entity === null || entity === undefined) return null;
  const { createdAt: _created, updatedAt: _updated, lastUsedAt: _used, ...content } = entity as Record<string, unknown>;
  return JSON.stringify(content);
}

/** Upserts a validated config by name in one transaction: all of it is written, or none. */
export function applyConfig(repos: ConfigRepos, config: LoadedConfig, now: number): Result<AppliedConfig> {
  let unchanged = 0;
  // Runs one upsert and counts it as unchanged when the entity reads the same before and after.
  const counted = <T extends object | null | undefined>(read: () => T, write: () => void) => {
    const before = contentOf(read());
    write();
    if (before !== null && before === contentOf(read())) unchanged++;
  };
  const keyNamed = (name: string) => repos.keys.list().find((k) => k.name === name);
  const run = repos.db.transaction(() => {
    for (const given of config.connections) {
      const existing = repos.connections.getByName(given.name);
      if (!given.secret && !existing && !capabilitiesOf(given.kind).secretOptional) {
        throw new ConfigApplyError(
          `connections: "${given.name}" needs ${capabilitiesOf(given.kind).usesOAuth ? 'accessToken' : 'apiKey'}`,
        );
      }
      counted(
        () => repos.connections.getByName(given.name),
        () =>
          repos.connections.upsert(
            capabilitiesOf(given.kind).usesOAuth ? keepRotatedOAuth(given, existing) : given,
            now,
          ),
      );
    }
    for (const key of config.keys) {
      const access = { scopes: key.scopes, allowedConnections: key.allowedConnections };
      // The view holds no hash: a key already equal to the file's is one that verifies under its name.
      const sameKey = repos.keys.verify(key.key)?.name === key.name;
      counted(
        () => (sameKey ? keyNamed(key.name) : null),
        () => {
          const result = repos.keys.upsertByName(key.name, key.key, now, access);
          if (!result.ok) throw new ConfigApplyError(`keys: "${key.name}": ${result.error.message}`);
        },
      );
    }
    for (const combo of config.combos) {
      if (repos.connections.getByName(combo.name))
        throw new ConfigApplyError(`combos: "${combo.name}" is already a connection name`);
      counted(
        () => repos.combos.getByName(combo.name),
        () => repos.combos.upsert(combo, now),
      );
    }
    if (config.routes) repos.routes.replace(config.routes);
    // After keys and connections, so a pool may name what this same file defines.
    for (const pool of config.pools) {
      counted(
        () => repos.quotaPools.list().find((p) => p.name === pool.name),
        () => {
          const saved = repos.quotaPools.upsert(pool, now);
          if (!saved.ok) throw new ConfigApplyError(`pools: "${pool.name}": ${saved.error.message}`);
        },
      );
    }
    for (const plan of config.plans) {
      const connection = repos.connections.getByName(plan.connection);
      if (!connection) throw new ConfigApplyError(`plans: no connection named "${plan.connection}"`);
      counted(
        () => {
          const dimensions = repos.quotaPools.plans().get(connection.id);
          return dimensions ? { dimensions } : null;
        },
        () => repos.quotaPools.setPlan(connection.id, plan.dimensions, now),
      );
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
      unchanged,
    });
  } catch (error) {
    if (error instanceof ConfigApplyError) return fail('invalid_input', error.message);
    throw error;
  }
}
