import { z } from 'zod';
import type { ConnectionKind } from '../../src-shared/domain/connection';
import {
  QUOTA_POLICIES,
  QUOTA_UNITS,
  quotaDimensionSchema,
  type QuotaDimension,
  type QuotaDimensionsSource,
  type QuotaPoolView,
} from '../../src-shared/domain/quota';
import { catalogProviderOf } from './engine/plan-catalog';
import { resolvePlan } from './engine/plan-resolve';
import { effectiveWeights } from './engine/weights';
import type { ResolvedPool } from './quota-ports';
import { parseJsonArray } from '../kernel/json-columns';

/** Rows of the quota tables as the repository reads them, joined with the names they point at. */
export interface PoolRow {
  id: string;
  name: string;
  dimensions_json: string;
  saturation_threshold: number | null;
  created_at: number;
  updated_at: number;
}

export interface MemberRow {
  pool_id: string;
  connection_id: string;
  name: string;
  kind: string;
  base_url: string | null;
}

export interface AllocationRow {
  pool_id: string;
  api_key_id: string;
  key_name: string;
  weight: number;
  policy: string;
  cap_value: number | null;
  cap_unit: string | null;
}

export interface PlanRow {
  connection_id: string;
  dimensions_json: string;
}

/** What one read of the tables yields: the views for people, the engine's shape, the overrides. */
export interface QuotaSnapshot {
  views: QuotaPoolView[];
  resolved: ResolvedPool[];
  plans: ReadonlyMap<string, QuotaDimension[]>;
}

const policyOf = z.enum(QUOTA_POLICIES).catch('hard');
const unitOf = z.enum(QUOTA_UNITS).nullable().catch(null);

/** Dimensions written by us; an entry this version cannot read is skipped rather than failing the list. */
export function parseDimensions(text: string): QuotaDimension[] {
  const dims: QuotaDimension[] = [];
  for (const entry of parseJsonArray(text)) {
    const dim = quotaDimensionSchema.safeParse(entry);
    if (dim.success) dims.push(dim.data);
  }
  return dims;
}

function groupBy<T extends { pool_id: string }>(rows: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const list = out.get(row.pool_id);
    if (list) list.push(row);
    else out.set(row.pool_id, [row]);
  }
  return out;
}

/** QPLAN-3 for a pool: its own dimensions, else the first member connection's plan (override > catalog). */
function dimensionsOf(
  own: QuotaDimension[],
  first: MemberRow | undefined,
  plans: ReadonlyMap<string, QuotaDimension[]>,
): { dimensions: QuotaDimension[]; source: QuotaDimensionsSource } {
  if (own.length > 0) return { dimensions: own, source: 'pool' };
  if (!first) return { dimensions: [], source: 'none' };
  // The kind column is CHECK-guarded to the known kinds.
  const provider = catalogProviderOf({ kind: first.kind as ConnectionKind, baseUrl: first.base_url });
  const plan = resolvePlan(plans.get(first.connection_id), provider);
  return { dimensions: plan.dimensions, source: plan.source === 'manual' ? 'manual-plan' : plan.source };
}

/**
 * Builds views and resolved pools from the joined rows. Members and allocations come in position
 * order; rows of deleted keys or connections are already gone (FK cascade), revoked keys are left out
 * here. A pool with no connection left is listed (0 connections) but has nothing to enforce.
 */
export function buildSnapshot(
  pools: readonly PoolRow[],
  members: readonly MemberRow[],
  allocations: readonly AllocationRow[],
  planRows: readonly PlanRow[],
): QuotaSnapshot {
  const plans = new Map(planRows.map((p) => [p.connection_id, parseDimensions(p.dimensions_json)] as const));
  const membersOf = groupBy(members);
  const allocationsOf = groupBy(allocations);
  const views: QuotaPoolView[] = [];
  const resolved: ResolvedPool[] = [];
  for (const pool of pools) {
    const conns = membersOf.get(pool.id) ?? [];
    const allocs = allocationsOf.get(pool.id) ?? [];
    const own = parseDimensions(pool.dimensions_json);
    const { dimensions, source } = dimensionsOf(own, conns[0], plans);
    const weights = effectiveWeights(allocs.map((a) => a.weight));
    const shaped = allocs.map((a, i) => ({
      keyId: a.api_key_id,
      key: a.key_name,
      weight: a.weight,
      effectiveWeight: weights[i] ?? a.weight,
      policy: policyOf.parse(a.policy),
      capValue: a.cap_value,
      capUnit: unitOf.parse(a.cap_unit),
    }));
    views.push({
      id: pool.id,
      name: pool.name,
      connections: conns.map((c) => c.name),
      dimensions: own,
      effectiveDimensions: dimensions,
      dimensionsSource: source,
      allocations: shaped,
      saturationThreshold: pool.saturation_threshold,
      createdAt: pool.created_at,
      updatedAt: pool.updated_at,
    });
    if (conns.length === 0) continue;
    resolved.push({
      id: pool.id,
      name: pool.name,
      connectionIds: conns.map((c) => c.connection_id),
      dimensions,
      saturationThreshold: pool.saturation_threshold,
      allocations: shaped.map(({ key, ...rest }) => ({ ...rest, keyName: key })),
    });
  }
  return { views, resolved, plans };
}
