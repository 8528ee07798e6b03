import type { EngineStores } from '../db/storage';
import { buildSnapshot } from '../quota/pool-snapshot';
import { createAffinityRepo } from '../routing/affinity/pin-store';
import { createLeasesRepo } from '../routing/leases/lease-store';

/** The engines' stores over the rows db/ keeps (db/ runs SQL only; the engines read their rows). */
export const ENGINE_STORES: EngineStores = {
  quotaSnapshot: buildSnapshot,
  pins: createAffinityRepo,
  leases: createLeasesRepo,
};
