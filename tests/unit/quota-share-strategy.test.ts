// TEST-12: the `quota-share` strategy's cases (REFERENCE §12.7), run with
// `node --import tsx/esm --test tests/unit/quota-share-strategy.test.ts`. Time is passed in; nothing sleeps.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COMBO_STRATEGIES } from '../../src-shared/domain/combo';
import { accountWindowKeyOf } from '../../src-main/quota/engine/quota-share/account-windows';
import { IN_FLIGHT_LEASE_TTL_MS } from '../../src-main/quota/engine/quota-share/in-flight';
import { createQuotaShareScheduler, type QuotaShareTarget } from '../../src-main/quota/engine/quota-share/scheduler';
import {
  INTERNAL_ROUTING_STRATEGIES,
  isInternalRoutingStrategy,
  QUOTA_SHARE_STRATEGY,
} from '../../src-main/quota/engine/quota-share/strategy';

interface T extends QuotaShareTarget {
  name: string;
}

const NOW = 1_700_000_000_000;
const MODEL = 'claude-opus-4-5';
const a: T = { name: 'a', connectionId: 'conn-a' };
const b: T = { name: 'b', connectionId: 'conn-b' };
const names = (ts: readonly T[]) => ts.map((t) => t.name);

function pickCounts(targets: readonly T[], rounds: number, combo = 'qtSd/team'): Map<string, number> {
  const s = createQuotaShareScheduler<T>();
  const counts = new Map<string, number>();
  for (let i = 0; i < rounds; i++) {
    const pick = s.select(targets, combo, MODEL, NOW + i);
    const name = pick.target?.name ?? 'none';
    counts.set(name, (counts.get(name) ?? 0) + 1);
    pick.release();
  }
  return counts;
}

describe('ROUTE-11 / TEST-12: in-flight accounting', () => {
  it('ROUTE-11: a pick increments its connection\u2019s in-flight count', () => {
    const s = createQuotaShareScheduler<T>();
    s.select([a, b], 'c', MODEL, NOW);
    assert.equal(s.inFlight('conn-a', NOW) + s.inFlight('conn-b', NOW), 1);
  });

  it('ROUTE-11: release decrements the in-flight count', () => {
    const s = createQuotaShareScheduler<T>();
    const pick = s.select([a, b], 'c', MODEL, NOW);
    const id = pick.target?.connectionId ?? null;
    assert.equal(s.inFlight(id, NOW), 1);
    pick.release();
    assert.equal(s.inFlight(id, NOW), 0);
  });

  it('ROUTE-11: the in-flight count never drops below zero', () => {
    const s = createQuotaShareScheduler<T>();
    const release = s.acquire('conn-a', NOW);
    release();
    release();
    release();
    assert.equal(s.inFlight('conn-a', NOW), 0);
    s.acquire('conn-a', NOW);
    assert.equal(s.inFlight('conn-a', NOW), 1);
  });

  it('ROUTE-11: an unreleased lease still counts just before its 120 000 ms TTL', () => {
    const s = createQuotaShareScheduler<T>();
    s.acquire('conn-a', NOW);
    assert.equal(s.inFlight('conn-a', NOW + IN_FLIGHT_LEASE_TTL_MS - 1), 1);
  });

  it('ROUTE-11: an unreleased lease expires after 120 001 ms', () => {
    const s = createQuotaShareScheduler<T>();
    s.select([a, b], 'c', MODEL, NOW);
    assert.equal(s.inFlight('conn-a', NOW + 120_001) + s.inFlight('conn-b', NOW + 120_001), 0);
  });

  it('ROUTE-11: an empty or null connection id is never counted', () => {
    const s = createQuotaShareScheduler<T>();
    s.acquire('', NOW);
    s.acquire(null, NOW);
    assert.equal(s.inFlight('', NOW), 0);
    assert.equal(s.inFlight(null, NOW), 0);
  });

  it('ROUTE-11: release is idempotent and does not free another pick\u2019s lease', () => {
    const s = createQuotaShareScheduler<T>();
    const first = s.select([a, b], 'c', MODEL, NOW);
    s.acquire(first.target?.connectionId ?? null, NOW);
    first.release();
    first.release();
    assert.equal(s.inFlight(first.target?.connectionId ?? null, NOW), 1);
  });
});

describe('ROUTE-11 / TEST-12: saturation gating', () => {
  it('ROUTE-11: a saturated 5h window demotes its connection to the tail', () => {
    const s = createQuotaShareScheduler<T>();
    s.recordAccountWindows('conn-a', [{ window: '5h', usedPercent: 100 }], NOW);
    const pick = s.select([a, b], 'c', MODEL, NOW);
    assert.equal(pick.target?.name, 'b');
    assert.deepEqual(names(pick.orderedTargets), ['b', 'a']);
  });

  it('ROUTE-11: a saturated 7d window demotes its connection', () => {
    const s = createQuotaShareScheduler<T>();
    s.recordAccountWindows('conn-a', [{ window: '7d', usedPercent: 120 }], NOW);
    assert.equal(s.select([a, b], 'c', MODEL, NOW).target?.name, 'b');
  });

  it('ROUTE-11: a saturated per-model 7d window demotes the connection for that model', () => {
    const s = createQuotaShareScheduler<T>();
    s.recordAccountWindows('conn-a', [{ window: '7d:claude-opus-4-5', usedPercent: 100 }], NOW);
    assert.equal(s.select([a, b], 'c', 'anthropic/claude-opus-4-5', NOW).target?.name, 'b');
  });

  it('ROUTE-11: a per-model window named by family (weekly opus) covers that family\u2019s models', () => {
    const s = createQuotaShareScheduler<T>();
    const key = accountWindowKeyOf('weekly opus (7d)');
    assert.equal(key, '7d:opus');
    s.recordAccountWindows('conn-a', [{ window: key ?? '', usedPercent: 100 }], NOW);
    assert.equal(s.isSaturated('conn-a', 'claude-opus-4-5', NOW), true);
    assert.equal(s.isSaturated('conn-a', 'claude-sonnet-4-5', NOW), false);
  });

  it('ROUTE-11: another model\u2019s saturated 7d window does not demote', () => {
    const s = createQuotaShareScheduler<T>();
    s.recordAccountWindows('conn-a', [{ window: '7d:claude-sonnet-4-5', usedPercent: 100 }], NOW);
    assert.equal(s.select([a, b], 'c', MODEL, NOW).target?.name, 'a');
  });

  it('ROUTE-11: a window below 100 % is not saturated', () => {
    const s = createQuotaShareScheduler<T>();
    s.recordAccountWindows('conn-a', [{ window: '5h', usedPercent: 99.9 }], NOW);
    assert.equal(s.select([a, b], 'c', MODEL, NOW).target?.name, 'a');
  });

  it('ROUTE-11: a saturated window resets lazily at its resetAt', () => {
    const s = createQuotaShareScheduler<T>();
    s.recordAccountWindows('conn-a', [{ window: '5h', usedPercent: 100, resetAt: NOW + 1_000 }], NOW);
    assert.equal(s.isSaturated('conn-a', MODEL, NOW + 999), true);
    assert.equal(s.isSaturated('conn-a', MODEL, NOW + 1_000), false);
  });

  it('ROUTE-11: when every account is saturated, all stay dispatchable (fail-open)', () => {
    const s = createQuotaShareScheduler<T>();
    s.recordAccountWindows('conn-a', [{ window: '5h', usedPercent: 100 }], NOW);
    s.recordAccountWindows('conn-b', [{ window: '7d', usedPercent: 100 }], NOW);
    const pick = s.select([a, b], 'c', MODEL, NOW);
    assert.notEqual(pick.target, null);
    assert.deepEqual(new Set(names(pick.orderedTargets)), new Set(['a', 'b']));
    assert.equal(pick.orderedTargets.length, 2);
  });

  it('ROUTE-11: a target without a connection id is never gated', () => {
    const s = createQuotaShareScheduler<T>();
    const loose: T = { name: 'loose', connectionId: null };
    s.recordAccountWindows('conn-a', [{ window: '5h', usedPercent: 100 }], NOW);
    assert.equal(s.isSaturated(null, MODEL, NOW), false);
    assert.equal(s.select([a, loose], 'c', MODEL, NOW).target?.name, 'loose');
  });

  it('ROUTE-11: with no saturation data any target may be picked', () => {
    const s = createQuotaShareScheduler<T>();
    const pick = s.select([a, b], 'c', MODEL, NOW);
    assert.ok(pick.target === a || pick.target === b);
  });
});

describe('ROUTE-11 / TEST-12: DRR and P2C', () => {
  it('ROUTE-11: an empty target list gives no target', () => {
    const s = createQuotaShareScheduler<T>();
    const pick = s.select([], 'c', MODEL, NOW);
    assert.equal(pick.target, null);
    assert.deepEqual(pick.orderedTargets, []);
    pick.release();
  });

  it('ROUTE-11: equal weights alternate between two targets', () => {
    const s = createQuotaShareScheduler<T>();
    const seen: string[] = [];
    for (let i = 0; i < 6; i++) {
      const pick = s.select([a, b], 'c', MODEL, NOW + i);
      seen.push(pick.target?.name ?? 'none');
      pick.release();
    }
    assert.deepEqual(seen, ['a', 'b', 'a', 'b', 'a', 'b']);
  });

  it('ROUTE-11: weight 200 vs 100 over 30 rounds gives the heavy target at least 1.5× the light one', () => {
    const counts = pickCounts(
      [
        { ...a, weight: 200 },
        { ...b, weight: 100 },
      ],
      30,
    );
    const heavy = counts.get('a') ?? 0;
    const light = counts.get('b') ?? 0;
    assert.equal(heavy + light, 30);
    assert.ok(light > 0, 'the light target is still served');
    assert.ok(heavy >= 1.5 * light, `heavy ${heavy} vs light ${light}`);
  });

  it('ROUTE-11: an explicit weight 0 stays 0 next to a weighted sibling', () => {
    const counts = pickCounts(
      [
        { ...a, weight: 0 },
        { ...b, weight: 5 },
      ],
      10,
    );
    assert.equal(counts.get('b'), 10);
  });

  it('ROUTE-11: all-zero weights mean an equal share', () => {
    const counts = pickCounts(
      [
        { ...a, weight: 0 },
        { ...b, weight: 0 },
      ],
      10,
    );
    assert.equal(counts.get('a'), 5);
    assert.equal(counts.get('b'), 5);
  });

  it('ROUTE-11: DRR state is kept per combo', () => {
    const s = createQuotaShareScheduler<T>();
    s.select([a, b], 'qtSd/one', MODEL, NOW).release();
    // A fresh combo starts from zero deficits, so it picks the first target again.
    assert.equal(s.select([a, b], 'qtSd/two', MODEL, NOW).target?.name, 'a');
    assert.equal(s.select([a, b], 'qtSd/one', MODEL, NOW).target?.name, 'b');
  });

  it('ROUTE-11: at most 200 combos keep DRR state, the oldest evicted', () => {
    const s = createQuotaShareScheduler<T>();
    for (let i = 0; i < 250; i++) s.select([a, b], `qtSd/c${i}`, MODEL, NOW).release();
    assert.equal(s.comboCount(), 200);
    // c0 was evicted: it starts over at `a` (it would be `b` with its state kept).
    assert.equal(s.select([a, b], 'qtSd/c0', MODEL, NOW).target?.name, 'a');
    assert.equal(s.select([a, b], 'qtSd/c249', MODEL, NOW).target?.name, 'b');
  });

  it('ROUTE-11: a single target is returned unchanged', () => {
    const s = createQuotaShareScheduler<T>();
    const pick = s.select([a], 'c', MODEL, NOW);
    assert.equal(pick.target, a);
    assert.deepEqual(pick.orderedTargets, [a]);
    assert.equal(s.comboCount(), 0);
  });

  it('ROUTE-11: P2C prefers the runner-up with fewer requests in flight (2 vs 0)', () => {
    const s = createQuotaShareScheduler<T>();
    s.acquire('conn-a', NOW);
    s.acquire('conn-a', NOW);
    const pick = s.select([a, b], 'c', MODEL, NOW);
    assert.equal(pick.target?.name, 'b');
  });

  it('ROUTE-11: P2C keeps DRR\u2019s choice when the runner-up is not strictly less loaded', () => {
    const s = createQuotaShareScheduler<T>();
    s.acquire('conn-a', NOW);
    s.acquire('conn-b', NOW);
    assert.equal(s.select([a, b], 'c', MODEL, NOW).target?.name, 'a');
  });
});

describe('ROUTE-11 / TEST-12: concurrency caps', () => {
  it('ROUTE-11: a connection at its cap (1/1) loses to one below its cap (3/10), even weighted 900 vs 1', () => {
    const s = createQuotaShareScheduler<T>();
    s.acquire('conn-a', NOW);
    for (let i = 0; i < 3; i++) s.acquire('conn-b', NOW);
    const pick = s.select(
      [
        { ...a, weight: 900 },
        { ...b, weight: 1 },
      ],
      'c',
      MODEL,
      NOW,
      {
        maxConcurrentByConnection: { 'conn-a': 1, 'conn-b': 10 },
      },
    );
    assert.equal(pick.target?.name, 'b');
    assert.deepEqual(names(pick.orderedTargets), ['b', 'a']);
  });

  it('ROUTE-11: a connection below its cap is not demoted', () => {
    const s = createQuotaShareScheduler<T>();
    s.acquire('conn-a', NOW);
    s.acquire('conn-b', NOW);
    // b (1/1) is at its cap, a (1/5) is not: a alone is dispatchable, though listed second.
    const pick = s.select([b, a], 'c', MODEL, NOW, { maxConcurrentByConnection: { 'conn-a': 5, 'conn-b': 1 } });
    assert.equal(pick.target?.name, 'a');
    assert.deepEqual(names(pick.orderedTargets), ['a', 'b']);
  });

  it('ROUTE-11: when every connection is at its cap, none is demoted', () => {
    const s = createQuotaShareScheduler<T>();
    s.acquire('conn-a', NOW);
    s.acquire('conn-b', NOW);
    const pick = s.select([a, b], 'c', MODEL, NOW, { maxConcurrentByConnection: { 'conn-a': 1, 'conn-b': 1 } });
    assert.equal(pick.target?.name, 'a');
    assert.equal(pick.orderedTargets.length, 2);
  });

  it('ROUTE-11: a null, 0 or missing cap means no limit', () => {
    for (const cap of [null, 0, undefined]) {
      const s = createQuotaShareScheduler<T>();
      for (let i = 0; i < 3; i++) s.acquire('conn-a', NOW);
      for (let i = 0; i < 3; i++) s.acquire('conn-b', NOW);
      const pick = s.select([a, b], 'c', MODEL, NOW, { maxConcurrentByConnection: { 'conn-a': cap } });
      assert.equal(pick.target?.name, 'a', `cap ${String(cap)}`);
    }
  });

  it('ROUTE-11: no options behaves like no caps at all', () => {
    const withNone = createQuotaShareScheduler<T>();
    const withEmpty = createQuotaShareScheduler<T>();
    for (let i = 0; i < 5; i++) {
      const x = withNone.select([a, b], 'c', MODEL, NOW + i);
      const y = withEmpty.select([a, b], 'c', MODEL, NOW + i, { maxConcurrentByConnection: {} });
      assert.equal(x.target?.name, y.target?.name);
      x.release();
      y.release();
    }
  });
});

describe('ROUTE-10 / TEST-12: the strategy is internal', () => {
  it('ROUTE-10: the strategy constant is quota-share and listed as internal', () => {
    assert.equal(QUOTA_SHARE_STRATEGY, 'quota-share');
    assert.ok(INTERNAL_ROUTING_STRATEGIES.includes('quota-share'));
    assert.equal(isInternalRoutingStrategy('quota-share'), true);
    assert.equal(isInternalRoutingStrategy('priority'), false);
  });

  it('ROUTE-10: quota-share never appears among the public combo strategies', () => {
    const publicList: readonly string[] = COMBO_STRATEGIES;
    assert.equal(publicList.includes(QUOTA_SHARE_STRATEGY), false);
    for (const internal of INTERNAL_ROUTING_STRATEGIES) assert.equal(publicList.includes(internal), false);
  });
});
