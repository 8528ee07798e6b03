import type { ResourceSpec } from '../../resources/resource';

/** QUI-9: how often the pool list is re-read while the Quota tab is shown (no quota event exists yet). */
export const POOLS_REFRESH_MS = 30_000;

/** How often an open pool card re-reads its usage, so the bars move while traffic flows. */
export const USAGE_REFRESH_MS = 3_000;

/** QUI-9: the pool list, re-read every 30 s while the tab is shown; a save re-reads it at once. */
export const QUOTA_POOLS: ResourceSpec<'quota.listPools'> = { method: 'quota.listPools', pollMs: POOLS_REFRESH_MS };

/** QUI-10: one pool's usage, read only while its card is open, then every few seconds. */
export const poolUsage = (id: string): ResourceSpec<'quota.poolUsage'> => ({
  method: 'quota.poolUsage',
  input: { id },
  pollMs: USAGE_REFRESH_MS,
});

/** Every connection's effective plan (QPLAN-3); re-read after each change and after a stream gap. */
export const QUOTA_PLANS: ResourceSpec<'quota.listPlans'> = { method: 'quota.listPlans' };
