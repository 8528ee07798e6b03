/**
 * ROUTE-10: `quota-share` orders the system pool combos (`qtSd/…`) only. It is internal: never in
 * `COMBO_STRATEGIES` (src-shared/domain/combo.ts), so neither the UI nor the API can offer it.
 */
export const QUOTA_SHARE_STRATEGY = 'quota-share';

/** Routing strategies that only Leeway itself assigns (the seed's internal strategy values). */
export const INTERNAL_ROUTING_STRATEGIES: readonly string[] = [QUOTA_SHARE_STRATEGY];

/** Whether a strategy name is internal-only. */
export function isInternalRoutingStrategy(name: string): boolean {
  return INTERNAL_ROUTING_STRATEGIES.includes(name);
}
