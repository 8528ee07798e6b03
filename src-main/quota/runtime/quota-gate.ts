import type { AppError } from '../../../src-shared/contract/errors';
import type { FairShareCost } from '../engine/fair-share';
import type { QuotaVerdict } from './quota-decision';
import type { IndexedPool } from './pool-index';
import type { QuotaRuntime } from './quota-runtime';

/** The pre-check over a request's candidates (QPIPE-1/2/7): who may go, who goes last, who is held. */
export interface QuotaGate<T> {
  /** Unpenalized candidates first, then penalized ones, each group in the order given. */
  allowed: readonly T[];
  /** Connection ids whose pool penalised this key (soft policy over its share). */
  penalized: ReadonlySet<string>;
  /**
   * Connection ids a pool covers for this key (their answers say `x-leeway-quota`): every such
   * connection, not only the candidates among them, so the set is the pool index's own.
   */
  covered: ReadonlySet<string>;
  blocked: readonly { target: T; error: AppError }[];
}

const NONE_PENALIZED: ReadonlySet<string> = new Set();
const NONE_BLOCKED: readonly never[] = Object.freeze([]);

/**
 * Checks every candidate a pool covers for this key, once per pool (a pool's verdict holds for all
 * its connections), the pools in parallel. A penalized candidate is demoted below every unpenalized
 * one: the ordered strategies (priority, round-robin, a session pin) have no score to multiply by
 * QPIPE-7's factor, and "× 0.7" can only ever mean "after the others" there. A `qtSd/` combo's
 * connections all belong to the key's one pool, so a penalty weighs on each of them alike and cannot
 * change its DRR order either; the factor (`softDeprioritizeFactor()`) is applied by the scored
 * strategies (p2c/auto) right after this gate (`strategy-store.ts` rescorePenalized).
 *
 * Returns the gate itself when the store answered synchronously and no candidate was held or
 * penalized (every request below its share: no promise, no new array); a promise otherwise.
 */
export function gateCandidates<T>(
  quota: QuotaRuntime,
  keyId: string,
  candidates: readonly T[],
  connectionIdOf: (t: T) => string,
  cost: FairShareCost,
  now: number,
): QuotaGate<T> | Promise<QuotaGate<T>> {
  // Candidates of one pool come in a row (a combo is one pool's connections), so the last verdict
  // answers most of them; a pool met again after another is simply checked again (same answer).
  let lastPool: IndexedPool | null = null;
  let lastVerdict: QuotaVerdict | null = null;
  for (const target of candidates) {
    const pool = quota.poolOf(keyId, connectionIdOf(target));
    if (pool === null) continue;
    if (pool !== lastPool) {
      lastPool = pool;
      lastVerdict = quota.checkNow(pool, keyId, cost, now);
    }
    if (lastVerdict === null || lastVerdict.kind !== 'allow' || lastVerdict.penalized)
      return gateEach(quota, keyId, candidates, connectionIdOf, cost, now);
  }
  return { allowed: candidates, penalized: NONE_PENALIZED, covered: quota.coveredBy(keyId), blocked: NONE_BLOCKED };
}

/** The general case: some candidate is held or penalized, or the store answers asynchronously. */
async function gateEach<T>(
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
  const penalized = new Set<string>();
  const blocked: { target: T; error: AppError }[] = [];
  for (const p of pending) {
    if (p.verdict === null) {
      first.push(p.target);
      continue;
    }
    const v = await p.verdict;
    if (v.kind === 'block') blocked.push({ target: p.target, error: v.error });
    else if (v.penalized) {
      penalized.add(p.connectionId);
      last.push(p.target);
    } else first.push(p.target);
  }
  for (const t of last) first.push(t);
  return { allowed: first, penalized, covered: quota.coveredBy(keyId), blocked };
}
