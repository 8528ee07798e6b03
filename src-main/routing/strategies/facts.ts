import type { PickMemory, PickRun } from './round-robin';

/** What the strategies know of a target's quota, from the provider's own headers (QPIPE-6, ROUTE-2). */
export interface QuotaFacts {
  /** Unspent fraction of the binding (most spent) window, 0..1; null when the provider never said. */
  remaining: number | null;
  /** When that window resets (ms epoch); null when unknown. */
  resetAt: number | null;
}

/** Served/failed counts and latency as the learn stage fed them (memory only). */
export interface HealthFacts {
  successes: number;
  failures: number;
  /** Failures since the last success: the reference's backoff level. */
  consecutiveFailures: number;
  /** The last failure's status (transport failures count as 502); cleared by a success. */
  lastErrorStatus: number | null;
  /** Exponential moving average of time to first byte, ms. */
  latencyEmaMs: number | null;
}

/** How often the combo's strategy picked the target. */
export interface UsageFacts {
  picks: number;
  lastPickedAt: number | null;
  /** Picks in a row of this same target (the reference's consecutiveUseCount). */
  consecutive: number;
}

/** One candidate as the pure strategies see it; `index` is its place in the plan's (listed) order. */
export interface CandidateFacts {
  key: string;
  connectionId: string;
  index: number;
  /** `weighted`: the combo target's weight (default 1). */
  weight: number;
  usage: UsageFacts;
  health: HealthFacts;
  quota: QuotaFacts;
  /** USD per million tokens, input + output list price (price table); null when unknown. */
  price: number | null;
  /** The model's context window in tokens; null when unknown. */
  contextWindow: number | null;
  /**
   * QPIPE-7: the key's quota pool penalised it (soft policy over its fair share); the scored
   * strategies multiply its merit by `OrderInput.softPenaltyFactor` after every other factor.
   */
  quotaSoftPenalty: boolean;
}

/** Per-request inputs of an ordering; `rng` is injected so tests are deterministic. */
export interface OrderInput {
  now: number;
  rng: () => number;
  /** Estimated prompt size in tokens (body bytes / 4); null when not known. */
  promptTokens: number | null;
  /** `lkgp`: the key that last served this combo. */
  lastGood: string | null;
  /** `cache-optimized`, `context-relay`: the key that served this conversation last. */
  conversationHome: string | null;
  /** `round-robin`: the combo's pick memory. */
  roundRobin: PickMemory | undefined;
  /** `round-robin`: the combo's current run of one target, and how many picks in a row it may have. */
  roundRobinRun: PickRun | undefined;
  stickyLimit: number;
  /** QPIPE-7: `QUOTA_SOFT_DEPRIORITIZE_FACTOR` (0..1, default 0.7), for candidates with `quotaSoftPenalty`. */
  softPenaltyFactor: number;
  /** `strict-random`: the keys still unused in this cycle, in deck order. */
  deck: readonly string[];
  /** `pipeline`: the stage that served last. */
  pipelineCursor: string | null;
}

export const NO_HEALTH: HealthFacts = {
  successes: 0,
  failures: 0,
  consecutiveFailures: 0,
  lastErrorStatus: null,
  latencyEmaMs: null,
};
export const NO_USAGE: UsageFacts = { picks: 0, lastPickedAt: null, consecutive: 0 };
export const NO_QUOTA: QuotaFacts = { remaining: null, resetAt: null };

/** Stable sort by a comparator, ties by listed position. */
export function sortBy(facts: readonly CandidateFacts[], cmp: (a: CandidateFacts, b: CandidateFacts) => number) {
  return [...facts].sort((a, b) => cmp(a, b) || a.index - b.index);
}

/** Laplace-smoothed success rate: 0.5 with no history. */
export const successRate = (h: HealthFacts) => (h.successes + 1) / (h.successes + h.failures + 2);
