import { describe, expect, it } from 'vitest';
import { COMBO_STRATEGIES } from '../../../src-shared/domain/combo';
import { NO_HEALTH } from './facts';
import { autoScore } from './health-orders';
import { orderByStrategy } from './order-strategy';
import { p2cScore } from './score-p2c';
import { fact, input, keys, seededRng } from './strategy-fixtures.testkit';

const NOW = 1_000_000;
const abc = () => [fact('a', 0), fact('b', 1), fact('c', 2)];

describe('routing strategies (pure orderings, ROUTE-1)', () => {
  it('ROUTE-1: every one of the 19 strategies keeps every candidate exactly once (strategies only order)', () => {
    for (const s of COMBO_STRATEGIES) {
      const out = orderByStrategy(s, abc(), input({ deck: ['c', 'a', 'b'] }));
      expect(keys(out).sort(), s).toEqual(['a', 'b', 'c']);
    }
  });

  it('ROUTE-1: priority keeps the listed order', () => {
    expect(keys(orderByStrategy('priority', abc(), input()))).toEqual(['a', 'b', 'c']);
  });

  it('ROUTE-1: weighted gives first place in proportion to the weights over many rounds', () => {
    const facts = [fact('a', 0, { weight: 3 }), fact('b', 1, { weight: 1 })];
    const rng = seededRng(7);
    let a = 0;
    for (let i = 0; i < 4000; i++) if (orderByStrategy('weighted', facts, input({ rng }))[0]?.key === 'a') a++;
    expect(a / 4000).toBeGreaterThan(0.71);
    expect(a / 4000).toBeLessThan(0.79);
  });

  it('ROUTE-1: p2c score rows follow REFERENCE-NOTES §4.5', () => {
    // Unknown leeway (+4) only, first in the list.
    expect(p2cScore(fact('a', 0), NOW)).toBe(4);
    // Exhausted (200) + quota penalty round(100/8)=13 + ≤10 % (10) + listed third (2).
    expect(p2cScore(fact('a', 2, { quota: { remaining: 0, resetAt: null } }), NOW)).toBe(225);
    // 429 last (6+24) + two failures in a row (16) + 50 % leeway (round(50/8)=6).
    const rateLimited = { ...NO_HEALTH, lastErrorStatus: 429, consecutiveFailures: 2 };
    expect(p2cScore(fact('a', 0, { health: rateLimited, quota: { remaining: 0.5, resetAt: null } }), NOW)).toBe(52);
    // 401 (6+18), backoff capped at 40, 20 % leeway (10 + 4), 3 picks in a row (6), picked 10 s ago (3), listed 9th (cap 6).
    const h401 = { ...NO_HEALTH, lastErrorStatus: 401, consecutiveFailures: 9 };
    const f = fact('a', 8, {
      health: h401,
      quota: { remaining: 0.2, resetAt: null },
      usage: { picks: 3, lastPickedAt: NOW - 10_000, consecutive: 3 },
    });
    expect(p2cScore(f, NOW)).toBe(24 + 40 + 14 + 6 + 3 + 6);
    // 5xx (6+10), recency 30 s (2) and 2 min (1).
    expect(p2cScore(fact('a', 0, { health: { ...NO_HEALTH, lastErrorStatus: 503 } }), NOW)).toBe(20);
    expect(p2cScore(fact('a', 0, { usage: { picks: 1, lastPickedAt: NOW - 30_000, consecutive: 1 } }), NOW)).toBe(8);
    expect(p2cScore(fact('a', 0, { usage: { picks: 1, lastPickedAt: NOW - 120_000, consecutive: 1 } }), NOW)).toBe(7);
  });

  it('ROUTE-1: p2c with two candidates takes the better score; with more, the better of two drawn never is the worst', () => {
    const bad = { ...NO_HEALTH, lastErrorStatus: 429 };
    expect(keys(orderByStrategy('p2c', [fact('a', 0, { health: bad }), fact('b', 1)], input()))).toEqual(['b', 'a']);
    const facts = [fact('a', 0), fact('b', 1), fact('c', 2, { health: bad, quota: { remaining: 0, resetAt: null } })];
    const rng = seededRng(3);
    const firsts = new Set<string>();
    for (let i = 0; i < 200; i++) firsts.add(orderByStrategy('p2c', facts, input({ rng }))[0]?.key ?? '');
    expect(firsts).toEqual(new Set(['a', 'b']));
  });

  it('ROUTE-1: random shuffles with the injected rng (same seed, same order; every target first sometimes)', () => {
    expect(keys(orderByStrategy('random', abc(), input({ rng: seededRng(5) })))).toEqual(
      keys(orderByStrategy('random', abc(), input({ rng: seededRng(5) }))),
    );
    const rng = seededRng(9);
    const firsts = new Set<string>();
    for (let i = 0; i < 100; i++) firsts.add(orderByStrategy('random', abc(), input({ rng }))[0]?.key ?? '');
    expect(firsts.size).toBe(3);
  });

  it('ROUTE-1: strict-random serves the deck unused keys first, in deck order', () => {
    expect(keys(orderByStrategy('strict-random', abc(), input({ deck: ['c', 'a'] })))).toEqual(['c', 'a', 'b']);
  });

  it('ROUTE-1: least-used puts the target picked longest ago (never: first) ahead', () => {
    const facts = [
      fact('a', 0, { usage: { picks: 5, lastPickedAt: 300, consecutive: 1 } }),
      fact('b', 1, { usage: { picks: 1, lastPickedAt: 100, consecutive: 1 } }),
      fact('c', 2),
    ];
    expect(keys(orderByStrategy('least-used', facts, input()))).toEqual(['c', 'b', 'a']);
  });

  it('ROUTE-1: cost-optimized orders by list price, unknown prices last', () => {
    const facts = [fact('a', 0, { price: 90 }), fact('b', 1), fact('c', 2, { price: 1.37 })];
    expect(keys(orderByStrategy('cost-optimized', facts, input()))).toEqual(['c', 'a', 'b']);
  });

  it('ROUTE-1: fill-first keeps the listed order and sends a reported-exhausted target last', () => {
    const facts = [fact('a', 0, { quota: { remaining: 0, resetAt: NOW + 5 } }), fact('b', 1), fact('c', 2)];
    expect(keys(orderByStrategy('fill-first', facts, input()))).toEqual(['b', 'c', 'a']);
  });

  it('ROUTE-2: reset-aware spends the quota that resets first; unknown after, exhausted last', () => {
    const facts = [
      fact('weekly', 0, { quota: { remaining: 0.9, resetAt: NOW + 5 * 86_400_000 } }),
      fact('unknown', 1),
      fact('fiveHour', 2, { quota: { remaining: 0.3, resetAt: NOW + 3_600_000 } }),
      fact('empty', 3, { quota: { remaining: 0, resetAt: NOW + 60_000 } }),
    ];
    expect(keys(orderByStrategy('reset-aware', facts, input()))).toEqual(['fiveHour', 'weekly', 'unknown', 'empty']);
  });

  it('ROUTE-2: reset-window ranks by unspent quota lost per hour at the reset', () => {
    const facts = [
      // 0.9 left over 90 h = 0.01/h
      fact('a', 0, { quota: { remaining: 0.9, resetAt: NOW + 90 * 3_600_000 } }),
      // 0.2 left over 1 h = 0.2/h
      fact('b', 1, { quota: { remaining: 0.2, resetAt: NOW + 3_600_000 } }),
      // 0.6 left over 2 h = 0.3/h
      fact('c', 2, { quota: { remaining: 0.6, resetAt: NOW + 2 * 3_600_000 } }),
      fact('d', 3),
    ];
    expect(keys(orderByStrategy('reset-window', facts, input()))).toEqual(['c', 'b', 'a', 'd']);
  });

  it('ROUTE-1: leeway puts the most remaining quota first; unknown after known, exhausted last', () => {
    const facts = [
      fact('a', 0, { quota: { remaining: 0.2, resetAt: null } }),
      fact('b', 1, { quota: { remaining: 0, resetAt: null } }),
      fact('c', 2),
      fact('d', 3, { quota: { remaining: 0.8, resetAt: null } }),
    ];
    expect(keys(orderByStrategy('leeway', facts, input()))).toEqual(['d', 'a', 'c', 'b']);
  });

  it('ROUTE-1: auto scores health, quota, latency and cost with the documented weights', () => {
    expect(autoScore(fact('x', 0))).toBeCloseTo(0.4 * 0.5 + 0.3 * 0.5 + 0.2 * 0.5 + 0.1 * 0.5);
    const healthy = fact('a', 1, {
      health: { ...NO_HEALTH, successes: 8, latencyEmaMs: 500 },
      quota: { remaining: 0.9, resetAt: null },
      price: 10,
    });
    expect(autoScore(healthy)).toBeCloseTo(0.4 * 0.9 + 0.3 * 0.9 + 0.2 * (1 / 1.5) + 0.1 * 0.5);
    const failing = fact('b', 0, {
      health: { ...NO_HEALTH, failures: 3, consecutiveFailures: 3, lastErrorStatus: 500 },
    });
    expect(keys(orderByStrategy('auto', [failing, healthy], input()))).toEqual(['a', 'b']);
  });

  it('ROUTE-1: lkgp puts the last target that served the combo first, the rest in listed order', () => {
    expect(keys(orderByStrategy('lkgp', abc(), input({ lastGood: 'c' })))).toEqual(['c', 'a', 'b']);
    expect(keys(orderByStrategy('lkgp', abc(), input({ lastGood: 'gone' })))).toEqual(['a', 'b', 'c']);
  });

  it('ROUTE-1: context-optimized takes the smallest window that fits; unknown next; too small last', () => {
    const facts = [
      fact('big', 0, { contextWindow: 1_000_000 }),
      fact('small', 1, { contextWindow: 32_000 }),
      fact('mid', 2, { contextWindow: 200_000 }),
      fact('unknown', 3),
    ];
    expect(keys(orderByStrategy('context-optimized', facts, input({ promptTokens: 100_000 })))).toEqual([
      'mid',
      'big',
      'unknown',
      'small',
    ]);
    expect(keys(orderByStrategy('context-optimized', facts, input({ promptTokens: 10_000 })))[0]).toBe('small');
  });

  it('ROUTE-1: cache-optimized keeps a conversation at its home, new ones go to the least used', () => {
    const facts = [fact('a', 0, { usage: { picks: 1, lastPickedAt: 5, consecutive: 1 } }), fact('b', 1), fact('c', 2)];
    expect(keys(orderByStrategy('cache-optimized', facts, input({ conversationHome: 'a' })))).toEqual(['a', 'b', 'c']);
    expect(keys(orderByStrategy('cache-optimized', facts, input()))).toEqual(['b', 'c', 'a']);
  });

  it('ROUTE-1: context-relay keeps a conversation at its home, new ones in listed order', () => {
    const facts = [fact('a', 0, { usage: { picks: 1, lastPickedAt: 5, consecutive: 1 } }), fact('b', 1), fact('c', 2)];
    expect(keys(orderByStrategy('context-relay', facts, input({ conversationHome: 'b' })))).toEqual(['b', 'a', 'c']);
    expect(keys(orderByStrategy('context-relay', facts, input()))).toEqual(['a', 'b', 'c']);
  });

  it('ROUTE-1: fusion puts the panel member with the best success rate first', () => {
    const facts = [
      fact('a', 0, { health: { ...NO_HEALTH, successes: 1, failures: 4 } }),
      fact('b', 1, { health: { ...NO_HEALTH, successes: 9, failures: 1 } }),
      fact('c', 2),
    ];
    expect(keys(orderByStrategy('fusion', facts, input()))).toEqual(['b', 'c', 'a']);
  });

  it('ROUTE-1: pipeline starts at the stage that served last and wraps around the list', () => {
    expect(keys(orderByStrategy('pipeline', abc(), input({ pipelineCursor: 'b' })))).toEqual(['b', 'c', 'a']);
    expect(keys(orderByStrategy('pipeline', abc(), input()))).toEqual(['a', 'b', 'c']);
  });

  it('ROUTE-1: round-robin uses the pick memory (least recently picked first)', () => {
    const memory = new Map([
      ['a', 2],
      ['b', 1],
    ]);
    expect(keys(orderByStrategy('round-robin', abc(), input({ roundRobin: memory })))).toEqual(['c', 'b', 'a']);
  });
});
