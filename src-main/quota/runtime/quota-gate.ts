import type { AppError } from '../../../src-shared/contract/errors';
import type { FairShareCost } from '../engine/fair-share';
import type { QuotaVerdict } from './quota-decision';
import type { QuotaRuntime } from './quota-runtime';

/** The pre-check over a request's candidates (QPIPE-1/2/7): who may go, who goes last, who is held. */
export interface QuotaGate<T> {
  /** Unpenalized candidates first, then penalized ones, each group in the order given. */
  allowed: T[];
  /** Connection ids whose pool penalised this key (soft policy over its share). */
  penalized: Set<string>;
  /** Connection ids a pool covers for this key (their answers say `x-headroom-quota`). */
  covered: Set<string>;
  blocked: { target: T; error: AppError }[];
}

/**
 * Checks every candidate a pool covers for this key, once per pool (a pool's verdict holds for all
 * its connections), the pools in parallel. A penalized candidate is demoted below every unpenalized
 * one: the ordered strategies (priority, round-robin, a session pin) have no score to multiply by
 * QPIPE-7's factor, and "× 0.7" can only ever mean "after the others" there. A `qtSd/` combo's
 * connections all belong to the key's one pool, so a penalty weighs on each of them alike and cannot
 * change its DRR order either; the factor (`softDeprioritizeFactor()`) is applied by the scored
 * strategies (p2c/auto) right after this gate (`strategy-store.ts` rescorePenalized).
 */
export async function gateCandidates<T>(
  quota: QuotaRuntime,
  keyId: string,
  candidates: readonly T[],
  connectionIdOf: (t: T) => string,
  cost: FairShareCost,
  now: number,
): Promise<QuotaGate<T>> {
  const verdicts = new Map<string, Promise<QuotaVerdict>>();
  const pending: { target: T; connectionId: string; verdict: Promise<QuotaVerdict> | null }[] = [];
  for (const target of candidates) {
    const connectionId = connectionIdOf(target);
    const pool = quota.poolOf(keyId, connectionId);
    let verdict: Promise<QuotaVerdict> | null = null;
    if (pool) {
      verdict = verdicts.get(pool.pool.id) ?? quota.check(pool, keyId, cost, now);
      verdicts.set(pool.pool.id, verdict);
    }
    pending.push({ target, connectionId, verdict });
  }
  const first: T[] = [];
  const last: T[] = [];
  const gate: QuotaGate<T> = { allowed: first, penalized: new Set(), covered: new Set(), blocked: [] };
  for (const p of pending) {
    if (p.verdict === null) {
      first.push(p.target);
      continue;
    }
    gate.covered.add(p.connectionId);
    const v = await p.verdict;
    if (v.kind === 'block') gate.blocked.push({ target: p.target, error: v.error });
    else if (v.penalized) {
      gate.penalized.add(p.connectionId);
      last.push(p.target);
    } else first.push(p.target);
  }
  for (const t of last) first.push(t);
  return gate;
}
