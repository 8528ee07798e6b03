import type { Storage } from '../db/storage';
import type { Catalog } from '../kernel/catalog';
import { resolveQuotaConfig } from '../quota/engine/quota-config';
import { createTeamShare, type TeamShare } from '../team/team-share';

/**
 * The team share over the quota store's Redis setting (one Redis URL for the team, issue 24 §4):
 * on when the quota store's driver is `redis` with a URL, read once at start.
 */
export function createTeamShareFor(
  s: Storage,
  catalog: () => Catalog,
  env: Readonly<Record<string, string | undefined>>,
  log: (line: string) => void,
): TeamShare {
  return createTeamShare({
    redis() {
      const cfg = resolveQuotaConfig(s.settings.get().quotaStore, env);
      if (cfg.driver !== 'redis' || !cfg.redisUrl) return null;
      return { url: cfg.redisUrl, prefix: cfg.redisKeyPrefix ?? 'leeway:' };
    },
    idOf: (name) => catalog().byName.get(name)?.view.id ?? null,
    nameOf: (id) => catalog().connections.find((c) => c.view.id === id)?.view.name ?? null,
    // Session pins and leases travel by the local key's name (issue 24 §4); few keys, read on a send.
    keyIdOf: (name) => s.keys.list().find((k) => k.name === name)?.id ?? null,
    keyNameOf: (id) => s.keys.list().find((k) => k.id === id)?.name ?? null,
    log,
  });
}
