import type { Result } from '../../../src-shared/contract/errors';
import type { QuotaPoolInput, QuotaPoolView } from '../../../src-shared/domain/quota';

/** QUI-11: where an earlier dashboard kept pools in the browser. */
export const LEGACY_POOLS_KEY = 'leeway:quota-share:pools';

export interface MigrationDeps {
  storage: Pick<Storage, 'getItem' | 'removeItem'>;
  listPools(): Promise<Result<QuotaPoolView[]>>;
  upsertPool(input: QuotaPoolInput): Promise<Result<QuotaPoolView>>;
}

export type MigrationOutcome =
  | { kind: 'skipped'; reason: 'no-legacy' | 'core-has-pools' | 'unreadable' | 'list-failed' }
  | { kind: 'migrated'; imported: string[]; refused: { name: string; message: string }[] };

/** The stored value as a list of pools: an array, or `{ pools: [...] }`; null when it is not JSON. */
function legacyPools(raw: string): unknown[] | null {
  try {
    const value: unknown = JSON.parse(raw);
    if (Array.isArray(value)) return value;
    if (typeof value === 'object' && value !== null && 'pools' in value && Array.isArray(value.pools))
      return value.pools;
    return null;
  } catch {
    return null;
  }
}

const nameOf = (pool: unknown, index: number): string =>
  typeof pool === 'object' && pool !== null && 'name' in pool && typeof pool.name === 'string'
    ? pool.name
    : `pool ${index + 1}`;

/**
 * QUI-11: when the browser still holds legacy pools AND the core has none, sends each one to
 * `quota.upsertPool`, then deletes the key. Idempotent: once any pool exists the empty-list
 * condition stops a second run, and the key is gone anyway.
 */
export async function migrateLegacyPools(deps: MigrationDeps): Promise<MigrationOutcome> {
  let raw: string | null;
  try {
    raw = deps.storage.getItem(LEGACY_POOLS_KEY);
  } catch {
    return { kind: 'skipped', reason: 'no-legacy' };
  }
  if (raw === null || raw.trim() === '') return { kind: 'skipped', reason: 'no-legacy' };
  const pools = legacyPools(raw);
  if (pools === null) return { kind: 'skipped', reason: 'unreadable' };
  if (pools.length === 0) return { kind: 'skipped', reason: 'no-legacy' };
  const list = await deps.listPools();
  if (!list.ok) return { kind: 'skipped', reason: 'list-failed' };
  if (list.value.length > 0) return { kind: 'skipped', reason: 'core-has-pools' };
  const imported: string[] = [];
  const refused: { name: string; message: string }[] = [];
  for (const [i, pool] of pools.entries()) {
    // The core validates: a malformed legacy entry comes back as a refusal, named, not as a crash.
    const result = await deps.upsertPool(pool as QuotaPoolInput);
    if (result.ok) imported.push(result.value.name);
    else refused.push({ name: nameOf(pool, i), message: result.error.message });
  }
  deps.storage.removeItem(LEGACY_POOLS_KEY);
  return { kind: 'migrated', imported, refused };
}
