import { randomUUID } from 'node:crypto';
import { fail, ok, type Result } from '../../src-shared/contract/errors';
import type { QuotaAllocation, QuotaDimension, QuotaPoolSpec, QuotaPoolView } from '../../src-shared/domain/quota';
import type { QuotaPoolsRepo } from '../quota/quota-ports';
import type { Database } from './open';
import type { AllocationRow, MemberRow, PlanRow, PoolRow, QuotaSnapshot } from '../quota/pool-snapshot';

/** The quota engine's reading of the four tables' rows (quota/pool-snapshot.ts), given by the caller. */
export type SnapshotBuilder = (
  pools: readonly PoolRow[],
  members: readonly MemberRow[],
  allocations: readonly AllocationRow[],
  plans: readonly PlanRow[],
) => QuotaSnapshot;

/** An allocation row without its pool and position, in column order (compared as JSON). */
interface StoredAllocation {
  api_key_id: string;
  weight: number;
  policy: string;
  cap_value: number | null;
  cap_unit: string | null;
}

interface Issue {
  path: string;
  message: string;
}

/** The only fields a column holds, so stray input never reaches the JSON. */
const dimensionsJson = (dims: readonly QuotaDimension[]): string =>
  JSON.stringify(dims.map(({ unit, window, limit }) => ({ unit, window, limit })));

/**
 * Pools, their connections and allocations, and manual plan overrides (QDB-1/2/4), all by id.
 * Reads build one snapshot that stays cached until any row changes through this connection
 * (`total_changes()`): a key revoked or a connection removed by another repository shows at once,
 * and the runtime rebuilding its index after a reload costs no query when nothing changed.
 */
export function createQuotaPoolsRepo(
  db: Database,
  buildSnapshot: SnapshotBuilder,
  newId: () => string = randomUUID,
): QuotaPoolsRepo {
  const selectPools = db.prepare<[], PoolRow>('SELECT * FROM quota_pools ORDER BY name');
  const selectMembers = db.prepare<[], MemberRow>(`
    SELECT m.pool_id, m.connection_id, c.name, c.kind, c.base_url
    FROM quota_pool_connections m JOIN connections c ON c.id = m.connection_id
    ORDER BY m.pool_id, m.position`);
  // Revoked keys are left out: they can no longer send a request, so they hold no share.
  const selectAllocations = db.prepare<[], AllocationRow>(`
    SELECT a.pool_id, a.api_key_id, k.name AS key_name, a.weight, a.policy, a.cap_value, a.cap_unit
    FROM quota_allocations a JOIN local_keys k ON k.id = a.api_key_id
    WHERE k.revoked_at IS NULL
    ORDER BY a.pool_id, a.position`);
  const selectPlans = db.prepare<[], PlanRow>('SELECT connection_id, dimensions_json FROM provider_plans');
  const totalChanges = db.prepare<[], { n: number }>('SELECT total_changes() AS n');

  const selectPoolByName = db.prepare<[string], PoolRow>('SELECT * FROM quota_pools WHERE name = ?');
  const selectConnection = db.prepare<[string], { id: string }>('SELECT id FROM connections WHERE name = ?');
  const selectKey = db.prepare<[string], { id: string; revoked_at: number | null }>(
    'SELECT id, revoked_at FROM local_keys WHERE name = ?',
  );
  const upsertPool = db.prepare<[PoolRow]>(`
    INSERT INTO quota_pools (id, name, dimensions_json, saturation_threshold, created_at, updated_at)
    VALUES (@id, @name, @dimensions_json, @saturation_threshold, @created_at, @updated_at)
    ON CONFLICT (name) DO UPDATE SET dimensions_json = excluded.dimensions_json,
      saturation_threshold = excluded.saturation_threshold, updated_at = excluded.updated_at`);
  const deleteMembers = db.prepare<[string]>('DELETE FROM quota_pool_connections WHERE pool_id = ?');
  const insertMember = db.prepare<[string, string, number]>(
    'INSERT INTO quota_pool_connections (pool_id, connection_id, position) VALUES (?, ?, ?)',
  );
  const deleteAllocations = db.prepare<[string]>('DELETE FROM quota_allocations WHERE pool_id = ?');
  const insertAllocation = db.prepare<
    [
      {
        pool_id: string;
        api_key_id: string;
        weight: number;
        policy: string;
        cap_value: number | null;
        cap_unit: string | null;
        position: number;
      },
    ]
  >(`INSERT INTO quota_allocations (pool_id, api_key_id, weight, policy, cap_value, cap_unit, position)
     VALUES (@pool_id, @api_key_id, @weight, @policy, @cap_value, @cap_unit, @position)`);
  const selectMemberIds = db.prepare<[string], { connection_id: string }>(
    'SELECT connection_id FROM quota_pool_connections WHERE pool_id = ? ORDER BY position',
  );
  const selectStoredAllocations = db.prepare<[string], StoredAllocation>(
    'SELECT api_key_id, weight, policy, cap_value, cap_unit FROM quota_allocations WHERE pool_id = ? ORDER BY position',
  );
  const deletePool = db.prepare<[string]>('DELETE FROM quota_pools WHERE name = ?');
  // An unchanged plan is left alone, so re-applying a config file writes nothing.
  const upsertPlan = db.prepare<[string, string, number]>(`
    INSERT INTO provider_plans (connection_id, dimensions_json, updated_at) VALUES (?, ?, ?)
    ON CONFLICT (connection_id) DO UPDATE SET dimensions_json = excluded.dimensions_json, updated_at = excluded.updated_at
    WHERE provider_plans.dimensions_json IS NOT excluded.dimensions_json`);
  const deletePlan = db.prepare<[string]>('DELETE FROM provider_plans WHERE connection_id = ?');

  let cache: { at: number; snapshot: QuotaSnapshot } | null = null;
  const snapshot = (): QuotaSnapshot => {
    const build = () =>
      buildSnapshot(selectPools.all(), selectMembers.all(), selectAllocations.all(), selectPlans.all());
    // Inside a transaction the rows may still roll back, and a rollback does not lower the counter.
    if (db.inTransaction) return build();
    const at = totalChanges.get()?.n ?? -1;
    if (cache?.at !== at) cache = { at, snapshot: build() };
    return cache.snapshot;
  };

  /** Names to ids; every unknown or revoked name is one issue with its path. */
  const resolveNames = (spec: QuotaPoolSpec) => {
    const issues: Issue[] = [];
    const connectionIds: string[] = [];
    spec.connections.forEach((name, i) => {
      const row = selectConnection.get(name);
      if (!row) issues.push({ path: `connections.${i}`, message: `no connection named "${name}"` });
      else connectionIds.push(row.id);
    });
    const allocations: Array<QuotaAllocation & { keyId: string }> = [];
    spec.allocations.forEach((a, i) => {
      const key = selectKey.get(a.key);
      if (!key) issues.push({ path: `allocations.${i}.key`, message: `no key named "${a.key}"` });
      else if (key.revoked_at !== null)
        issues.push({ path: `allocations.${i}.key`, message: `key "${a.key}" is revoked` });
      else allocations.push({ ...a, keyId: key.id });
    });
    return { issues, connectionIds, allocations };
  };

  const write = (row: PoolRow, connectionIds: readonly string[], allocations: readonly StoredAllocation[]): void => {
    const { id } = row;
    upsertPool.run(row);
    // Membership and allocations are replaced whole, so their order is exactly the written one.
    deleteMembers.run(id);
    connectionIds.forEach((connectionId, position) => insertMember.run(id, connectionId, position));
    deleteAllocations.run(id);
    allocations.forEach((a, position) => insertAllocation.run({ ...a, pool_id: id, position }));
  };

  const upsert = db.transaction((spec: QuotaPoolSpec, now: number): Result<QuotaPoolView> => {
    const { issues, connectionIds, allocations } = resolveNames(spec);
    if (issues.length > 0) {
      return fail('invalid_input', issues.map((i) => `${i.path}: ${i.message}`).join('; '), { details: { issues } });
    }
    const existing = selectPoolByName.get(spec.name);
    const id = existing?.id ?? newId();
    const row: PoolRow = {
      id,
      name: spec.name,
      dimensions_json: dimensionsJson(spec.dimensions),
      saturation_threshold: spec.saturationThreshold,
      created_at: existing?.created_at ?? now,
      updated_at: now,
    };
    const stored: StoredAllocation[] = allocations.map((a) => ({
      api_key_id: a.keyId,
      weight: a.weight,
      policy: a.policy,
      cap_value: a.capValue,
      cap_unit: a.capUnit,
    }));
    // The same pool again (a config file re-applied) writes nothing, so updatedAt keeps its meaning.
    const unchanged =
      existing !== undefined &&
      existing.dimensions_json === row.dimensions_json &&
      existing.saturation_threshold === row.saturation_threshold &&
      JSON.stringify(selectMemberIds.all(id).map((m) => m.connection_id)) === JSON.stringify(connectionIds) &&
      JSON.stringify(selectStoredAllocations.all(id)) === JSON.stringify(stored);
    if (!unchanged) write(row, connectionIds, stored);
    const view = snapshot().views.find((p) => p.id === id);
    if (!view) throw new Error(`quota pool ${spec.name} vanished inside its own transaction`);
    return ok(view);
  });

  return {
    list: () => snapshot().views,
    upsert: (spec, now) => upsert(spec, now),
    remove: (name) => deletePool.run(name).changes > 0,
    resolved: () => snapshot().resolved,
    plans: () => snapshot().plans,
    setPlan: (connectionId, dimensions, now) => void upsertPlan.run(connectionId, dimensionsJson(dimensions), now),
    removePlan: (connectionId) => deletePlan.run(connectionId).changes > 0,
  };
}
