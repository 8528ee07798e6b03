import { sortBy, type CandidateFacts } from './facts';
import { DEFAULT_SOFT_PENALTY_FACTOR, penalizeCost } from './soft-penalty';

/** The reference's error penalty (REFERENCE-NOTES §4.5): 6 for any error, more by its kind. */
function errorPenalty(status: number | null): number {
  if (status === null) return 0;
  if (status === 429) return 30;
  if (status === 401 || status === 403) return 24;
  if (status >= 500) return 16;
  return 6;
}

function quotaPenalty(remaining: number | null): number {
  if (remaining === null) return 4;
  const h = remaining * 100;
  return Math.round((100 - h) / 8) + (h <= 10 ? 10 : h <= 25 ? 4 : 0);
}

function recencyPenalty(lastPickedAt: number | null, now: number): number {
  if (lastPickedAt === null) return 0;
  const age = now - lastPickedAt;
  return age < 15_000 ? 3 : age < 60_000 ? 2 : age < 300_000 ? 1 : 0;
}

/**
 * The p2c score of REFERENCE-NOTES §4.5, lower is better: exhausted quota, the last error, backoff
 * (failures in a row), quota leeway, consecutive use, recency and the listed position; then, last,
 * QPIPE-7's soft penalty (`penalizeCost`: the score's merit × the factor).
 */
export function p2cScore(f: CandidateFacts, now: number, softPenaltyFactor = DEFAULT_SOFT_PENALTY_FACTOR): number {
  const score = baseScore(f, now);
  return f.quotaSoftPenalty ? penalizeCost(score, softPenaltyFactor) : score;
}

function baseScore(f: CandidateFacts, now: number): number {
  return (
    (f.quota.remaining === 0 ? 200 : 0) +
    errorPenalty(f.health.lastErrorStatus) +
    Math.min(40, 8 * f.health.consecutiveFailures) +
    quotaPenalty(f.quota.remaining) +
    Math.min(12, 2 * f.usage.consecutive) +
    recencyPenalty(f.usage.lastPickedAt, now) +
    Math.min(6, f.index)
  );
}

/** Ties: more leeway, then the listed position, then the connection id. */
function compare(a: CandidateFacts, b: CandidateFacts, now: number, factor: number): number {
  return (
    p2cScore(a, now, factor) - p2cScore(b, now, factor) ||
    (b.quota.remaining ?? -1) - (a.quota.remaining ?? -1) ||
    a.index - b.index ||
    a.connectionId.localeCompare(b.connectionId)
  );
}

/**
 * Power of two choices: with more than two candidates two distinct ones are drawn and the better
 * score goes first; the rest follow by score (failover order). Two or fewer: by score.
 */
export function orderP2c(
  facts: readonly CandidateFacts[],
  now: number,
  rng: () => number,
  softPenaltyFactor = DEFAULT_SOFT_PENALTY_FACTOR,
): CandidateFacts[] {
  const byScore = sortBy(facts, (a, b) => compare(a, b, now, softPenaltyFactor));
  if (facts.length <= 2) return byScore;
  const i = Math.floor(rng() * facts.length);
  let j = Math.floor(rng() * (facts.length - 1));
  if (j >= i) j += 1;
  const a = facts[i];
  const b = facts[j];
  if (!a || !b) return byScore;
  const winner = compare(a, b, now, softPenaltyFactor) <= 0 ? a : b;
  return [winner, ...byScore.filter((f) => f !== winner)];
}
