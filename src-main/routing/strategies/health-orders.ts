import { sortBy, successRate, type CandidateFacts } from './facts';
import { DEFAULT_SOFT_PENALTY_FACTOR, penalizeMerit } from './soft-penalty';

/** `least-used` (REFERENCE-NOTES §4.5): the target picked longest ago (never picked: first). */
export const orderLeastUsed = (facts: readonly CandidateFacts[]) =>
  sortBy(facts, (a, b) => (a.usage.lastPickedAt ?? -1) - (b.usage.lastPickedAt ?? -1));

/** `cost-optimized`: the cheapest list price (price table, input + output per Mtok) first; unknown prices last. */
export const orderCost = (facts: readonly CandidateFacts[]) =>
  sortBy(facts, (a, b) => (a.price ?? Number.POSITIVE_INFINITY) - (b.price ?? Number.POSITIVE_INFINITY) || 0);

/** A key first when present, the rest in the given order. */
export function keyFirst(facts: readonly CandidateFacts[], key: string | null): CandidateFacts[] {
  const home = key === null ? undefined : facts.find((f) => f.key === key);
  return home ? [home, ...facts.filter((f) => f !== home)] : [...facts];
}

/** The auto score's weights (README): health, remaining quota, latency, cost. */
export const AUTO_WEIGHTS = { health: 0.4, quota: 0.3, latency: 0.2, cost: 0.1 } as const;

/**
 * `auto`, higher is better, each factor 0..1 with 0.5 when unknown: health = smoothed success rate
 * (halved while failing), quota = remaining fraction, latency = 1 / (1 + TTFB EMA in s), cost =
 * 1 / (1 + price / 10 USD); then, last, QPIPE-7's soft penalty multiplies the sum by the factor.
 */
export function autoScore(f: CandidateFacts, softPenaltyFactor = DEFAULT_SOFT_PENALTY_FACTOR): number {
  const score = baseAutoScore(f);
  return f.quotaSoftPenalty ? penalizeMerit(score, softPenaltyFactor) : score;
}

function baseAutoScore(f: CandidateFacts): number {
  const health = successRate(f.health) * (f.health.consecutiveFailures > 0 ? 0.5 : 1);
  const quota = f.quota.remaining ?? 0.5;
  const latency = f.health.latencyEmaMs === null ? 0.5 : 1 / (1 + f.health.latencyEmaMs / 1000);
  const cost = f.price === null ? 0.5 : 1 / (1 + f.price / 10);
  return (
    AUTO_WEIGHTS.health * health +
    AUTO_WEIGHTS.quota * quota +
    AUTO_WEIGHTS.latency * latency +
    AUTO_WEIGHTS.cost * cost
  );
}

export const orderAuto = (facts: readonly CandidateFacts[], softPenaltyFactor = DEFAULT_SOFT_PENALTY_FACTOR) =>
  sortBy(facts, (a, b) => autoScore(b, softPenaltyFactor) - autoScore(a, softPenaltyFactor));

/** `fusion` (closest local behaviour): the panel member with the best smoothed success rate first. */
export const orderFusion = (facts: readonly CandidateFacts[]) =>
  sortBy(facts, (a, b) => successRate(b.health) - successRate(a.health));

/** `pipeline`: stages in listed order, starting at the stage that served last and wrapping around. */
export function orderPipeline(facts: readonly CandidateFacts[], cursor: string | null): CandidateFacts[] {
  const at = cursor === null ? -1 : facts.findIndex((f) => f.key === cursor);
  return at <= 0 ? [...facts] : [...facts.slice(at), ...facts.slice(0, at)];
}

/**
 * `context-optimized`: the smallest context window that fits the estimated prompt (+10 %) first;
 * unknown windows after, windows too small last (largest first).
 */
export function orderContext(facts: readonly CandidateFacts[], promptTokens: number | null): CandidateFacts[] {
  if (promptTokens === null) return [...facts];
  const need = promptTokens * 1.1;
  const group = (f: CandidateFacts) => (f.contextWindow === null ? 1 : f.contextWindow >= need ? 0 : 2);
  return sortBy(facts, (a, b) => {
    const ga = group(a);
    const gb = group(b);
    if (ga !== gb) return ga - gb;
    const wa = a.contextWindow ?? 0;
    const wb = b.contextWindow ?? 0;
    return ga === 2 ? wb - wa : wa - wb;
  });
}
