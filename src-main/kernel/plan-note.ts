import type { ComboView } from '../../src-shared/domain/combo';

/**
 * The request a target was planned for, written on the target itself by the strategy store that
 * ordered it (targets are fresh objects per request). On the target rather than in a WeakMap: two
 * ephemeron entries per candidate and request were measurable on the hot path, and a WeakMap value
 * outlived young-generation collections. `owner` tells one store's notes from another's.
 */
export interface PlanNote {
  owner: object;
  combo: ComboView | null;
  /**
   * The body's size, not the body: a plan lives as long as a target stays referenced (picks, the
   * last list), and a 70 KB body held that way — even by a WeakRef, which young-generation
   * collections treat as strong — was promoted, so only full mark-compacts freed it (up to 15 of
   * them in a bench round of Claude Code-shaped requests). The tool count is read from the body the
   * caller still has (a tools demotion while planning, a failure while sending).
   */
  bodyBytes: number | null;
  conversation: string | null;
  emergencyFallback: boolean;
  at: number;
  tools: number | null;
  /** How many candidates the plan listed; each one's place is its `listedAt` (a re-scoring keeps it). */
  listedCount: number;
}
