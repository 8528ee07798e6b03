import { describe, expect, it } from 'vitest';
import { NO_HEALTH } from './facts';
import { autoScore } from './health-orders';
import { orderByStrategy } from './order-strategy';
import { p2cScore } from './score-p2c';
import { penalizeCost, penalizeMerit } from './soft-penalty';
import { fact, input, keys, seededRng } from './strategy-fixtures.testkit';

const NOW = 1_000_000;
const quota = (remaining: number) => ({ remaining, resetAt: null });

describe('QPIPE-7: the quota soft penalty inside the scored strategies', () => {
  it('QPIPE-7: auto (higher is better) multiplies the whole score by the factor, after every other factor', () => {
    const plain = fact('a', 0, { quota: quota(0.8) });
    const penalised = fact('a', 0, { quota: quota(0.8), quotaSoftPenalty: true });
    // 0.4 × 0.5 (no history) + 0.3 × 0.8 + 0.2 × 0.5 + 0.1 × 0.5 = 0.59
    expect(autoScore(plain, 0.7)).toBeCloseTo(0.59, 10);
    expect(autoScore(penalised, 0.7)).toBeCloseTo(0.59 * 0.7, 10);
    expect(autoScore(penalised)).toBeCloseTo(0.59 * 0.7, 10); // the default factor is 0.7
    expect(autoScore(penalised, 0.5)).toBeCloseTo(0.295, 10);
    expect(autoScore(penalised, 1)).toBeCloseTo(0.59, 10);
  });

  it('QPIPE-7: p2c (lower is better) gets worse: (1 + score) / factor − 1, so even a score of 0 is penalised', () => {
    // Unknown leeway only: 4 → (1 + 4) / 0.7 − 1.
    expect(p2cScore(fact('a', 0, { quotaSoftPenalty: true }), NOW, 0.7)).toBeCloseTo(5 / 0.7 - 1, 10);
    expect(p2cScore(fact('a', 0), NOW, 0.7)).toBe(4);
    // Full leeway, first, never used: 0 → 1 / 0.7 − 1 ≈ 0.43, behind an unpenalised 0.
    const best = { quota: quota(1) };
    expect(p2cScore(fact('a', 0, best), NOW)).toBe(0);
    expect(p2cScore(fact('a', 0, { ...best, quotaSoftPenalty: true }), NOW)).toBeCloseTo(1 / 0.7 - 1, 10);
    expect(penalizeCost(20, 1)).toBe(20);
    expect(penalizeCost(20, 0)).toBe(Number.MAX_SAFE_INTEGER);
    expect(penalizeMerit(0.5, 0)).toBe(0);
  });

  it('QPIPE-7: the penalty lowers the chance but never blocks: a penalised target still beats a clearly worse one', () => {
    // auto: a penalised healthy target vs an unpenalised one with slightly less quota left → the unpenalised first.
    const healthy = { ...NO_HEALTH, successes: 20 };
    const a = fact('a', 0, { health: healthy, quota: quota(0.9), quotaSoftPenalty: true });
    const b = fact('b', 1, { health: healthy, quota: quota(0.7) });
    expect(keys(orderByStrategy('auto', [a, b], input()))).toEqual(['b', 'a']);
    // … but against a failing target with no quota left, the penalised one still goes first.
    const failing = { ...NO_HEALTH, failures: 5, consecutiveFailures: 5, lastErrorStatus: 503 };
    const c = fact('c', 1, { health: failing, quota: quota(0) });
    expect(keys(orderByStrategy('auto', [a, c], input()))).toEqual(['a', 'c']);
    // p2c: 4 (unknown leeway) penalised → 6.14 loses to 5 (unknown leeway, listed second).
    const p = fact('p', 0, { quotaSoftPenalty: true });
    expect(keys(orderByStrategy('p2c', [p, fact('q', 1)], input()))).toEqual(['q', 'p']);
    // … and beats a target whose last answer was a 429 (4 + 30).
    const limited = fact('r', 1, { health: { ...NO_HEALTH, lastErrorStatus: 429 } });
    expect(keys(orderByStrategy('p2c', [p, limited], input()))).toEqual(['p', 'r']);
  });

  it('QPIPE-7: the factor comes from the order input (QUOTA_SOFT_DEPRIORITIZE_FACTOR): 1 turns the penalty off', () => {
    const p = fact('p', 0, { quotaSoftPenalty: true });
    expect(keys(orderByStrategy('p2c', [p, fact('q', 1)], input({ softPenaltyFactor: 1 })))).toEqual(['p', 'q']);
    expect(keys(orderByStrategy('auto', [p, fact('q', 1)], input({ softPenaltyFactor: 1 })))).toEqual(['p', 'q']);
  });

  it('QPIPE-7: p2c over three candidates: the drawn pair is compared with the penalty applied', () => {
    const facts = [fact('a', 0, { quotaSoftPenalty: true }), fact('b', 1), fact('c', 2)];
    const rng = seededRng(5);
    let aFirst = 0;
    for (let i = 0; i < 300; i++) if (orderByStrategy('p2c', facts, input({ rng }))[0]?.key === 'a') aFirst++;
    // Penalised a (6.14) loses every pair it is drawn in (b: 5, c: 6): never first.
    expect(aFirst).toBe(0);
    let unpenalised = 0;
    const plain = [fact('a', 0), fact('b', 1), fact('c', 2)];
    for (let i = 0; i < 300; i++) if (orderByStrategy('p2c', plain, input({ rng }))[0]?.key === 'a') unpenalised++;
    expect(unpenalised).toBeGreaterThan(100);
  });
});
