import type { QuotaCatalogProvider, QuotaDimension } from '../../../src-shared/domain/quota';
import { PLAN_CATALOG } from './plan-catalog';

export interface ResolvedPlan {
  source: 'manual' | 'catalog' | 'none';
  dimensions: QuotaDimension[];
}

/**
 * A connection's plan (QPLAN-1): its manual override when it has at least one dimension, else the
 * catalog entry of its provider, else nothing (manual setup needed). `source` says which (QPLAN-3).
 * Returns copies so a caller may keep or change them without touching the catalog.
 */
export function resolvePlan(
  override: readonly QuotaDimension[] | undefined,
  provider: QuotaCatalogProvider | null,
): ResolvedPlan {
  if (override !== undefined && override.length > 0) {
    return { source: 'manual', dimensions: override.map((d) => ({ ...d })) };
  }
  if (provider !== null) {
    return { source: 'catalog', dimensions: PLAN_CATALOG[provider].map((d) => ({ ...d })) };
  }
  return { source: 'none', dimensions: [] };
}
