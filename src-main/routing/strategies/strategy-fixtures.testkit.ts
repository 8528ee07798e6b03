import { NO_HEALTH, NO_QUOTA, NO_USAGE, type CandidateFacts, type OrderInput } from './facts';

/** Deterministic rng for tests (mulberry32). */
export function seededRng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A candidate named `key` at `index`, with overrides. */
export function fact(key: string, index: number, over: Partial<CandidateFacts> = {}): CandidateFacts {
  return {
    key,
    connectionId: key,
    index,
    weight: 1,
    usage: NO_USAGE,
    health: NO_HEALTH,
    quota: NO_QUOTA,
    price: null,
    contextWindow: null,
    quotaSoftPenalty: false,
    ...over,
  };
}

export function input(over: Partial<OrderInput> = {}): OrderInput {
  return {
    now: 1_000_000,
    rng: seededRng(1),
    promptTokens: null,
    lastGood: null,
    conversationHome: null,
    roundRobin: undefined,
    roundRobinRun: undefined,
    stickyLimit: 1,
    softPenaltyFactor: 0.7,
    deck: [],
    pipelineCursor: null,
    ...over,
  };
}

export const keys = (facts: readonly CandidateFacts[]) => facts.map((f) => f.key);
