import { describe, expect, it } from 'vitest';
import type { ComboStrategy, ComboView } from '../../../src-shared/domain/combo';
import type { ConnectionView } from '../../../src-shared/domain/connection';
import { buildCatalog } from '../build-catalog';
import { resolveTargets } from '../resolve-targets';
import { type Target } from '../../kernel/target';
import { NO_SIGNALS } from '../../kernel/upstream-signals';
import { readHeaderSignals } from '../../providers/signals/read-signals';
import { createWindowReadings } from '../../quota/runtime/window-readings';
import { seededRng } from './strategy-fixtures.testkit';
import { createStrategyStore, type RequestHints } from './strategy-store';

function view(name: string, model: string): ConnectionView {
  return {
    id: `id-${name}`,
    name,
    kind: 'anthropic',
    baseUrl: null,
    effectiveBaseUrl: 'https://api.anthropic.com',
    models: [model],
    modelAliases: {},
    priority: 1,
    enabled: true,
    maxConcurrent: null,
    disableCooling: false,
    providerSpecificData: {},
    secretHint: null,
    createdAt: 0,
    updatedAt: 0,
  };
}

const secret = { type: 'api-key', apiKey: 'sk-test' } as const;

function setup(strategy: ComboStrategy, weights: (number | undefined)[] = []) {
  const names = ['a', 'b', 'c'];
  const combo: ComboView = {
    id: 'k',
    name: 'main',
    targets: names.map((n, i) => {
      const w = weights[i];
      return w === undefined ? { connection: n, model: null } : { connection: n, model: null, weight: w };
    }),
    strategy,
    createdAt: 0,
    updatedAt: 0,
  };
  const catalog = buildCatalog(
    names.map((n) => ({ view: view(n, n === 'c' ? 'claude-opus-4-1' : 'claude-haiku-4-5'), secret })),
    [combo],
    [],
  );
  /** A fresh request's candidates, as the plan stage gets them. */
  const plan = (): Target[] => {
    const r = resolveTargets(catalog, 'main', 'anthropic');
    if (r.kind !== 'targets') throw new Error('combo did not resolve');
    return r.targets;
  };
  return { combo, plan };
}

const hints = (over: Partial<RequestHints> = {}): RequestHints => ({
  body: null,
  conversation: null,
  emergencyFallback: false,
  ...over,
});
const names = (ts: readonly Target[]) => ts.map((t) => t.connection.view.name);

describe('strategy store (memory the learn stage feeds)', () => {
  it('ROUTE-1: lkgp moves to the target that served last and stays there', () => {
    const store = createStrategyStore(seededRng(1));
    const { combo, plan } = setup('lkgp');
    expect(names(store.order(combo, plan(), hints(), 1))).toEqual(['a', 'b', 'c']);
    const second = plan();
    store.order(combo, second, hints(), 2);
    const b = second[1];
    if (!b) throw new Error('no b');
    store.served(b, 100);
    expect(names(store.order(combo, plan(), hints(), 4))).toEqual(['b', 'a', 'c']);
  });

  it('ROUTE-1: one store never reads the plan another store wrote on a target', () => {
    const mine = createStrategyStore(seededRng(1));
    const other = createStrategyStore(seededRng(1));
    const { combo, plan } = setup('lkgp');
    const targets = plan();
    other.order(combo, targets, hints(), 1);
    const b = targets[1];
    if (!b) throw new Error('no b');
    // `mine` never planned b: its served() has no combo to remember b for; `other` does.
    mine.served(b, 100);
    expect(names(mine.order(combo, plan(), hints(), 3))).toEqual(['a', 'b', 'c']);
    other.served(b, 100);
    expect(names(other.order(combo, plan(), hints(), 3))).toEqual(['b', 'a', 'c']);
  });

  it('ROUTE-1: weighted 6:2:(default 1) over many rounds gives the first pick in proportion to the weights', () => {
    const store = createStrategyStore(seededRng(11));
    const { combo, plan } = setup('weighted', [6, 2]);
    const counts = new Map<string, number>();
    for (let i = 0; i < 3000; i++) {
      const first = names(store.order(combo, plan(), hints(), i))[0] ?? '';
      counts.set(first, (counts.get(first) ?? 0) + 1);
    }
    // weights 6 : 2 : 1 (c defaults to 1)
    expect((counts.get('a') ?? 0) / 3000).toBeCloseTo(6 / 9, 1);
    expect((counts.get('b') ?? 0) / 3000).toBeCloseTo(2 / 9, 1);
    expect((counts.get('c') ?? 0) / 3000).toBeCloseTo(1 / 9, 1);
  });

  it('ROUTE-1: strict-random uses every target once per cycle before any repeats', () => {
    const store = createStrategyStore(seededRng(4));
    const { combo, plan } = setup('strict-random');
    for (let cycle = 0; cycle < 3; cycle++) {
      const seen: string[] = [];
      for (let i = 0; i < 3; i++) {
        const candidates = plan();
        const ordered = store.order(combo, candidates, hints(), i);
        const first = ordered[0];
        if (!first) throw new Error('empty');
        store.picked(combo, first, candidates);
        seen.push(first.connection.view.name);
      }
      expect(seen.sort()).toEqual(['a', 'b', 'c']);
    }
  });

  it('ROUTE-2: reset-aware learns reset times from served headers and spends the soonest reset first', () => {
    // The windows are the quota runtime's readings (one memory per fact, issue 22), read by the store.
    const readings = createWindowReadings();
    const store = createStrategyStore(seededRng(1), { readings });
    const { combo, plan } = setup('reset-aware');
    const now = 1_700_000_000_000;
    const serve = (i: number, util: string, resetInS: number) => {
      const t = plan()[i];
      if (!t) throw new Error('no target');
      const headers = {
        'anthropic-ratelimit-unified-5h-utilization': util,
        'anthropic-ratelimit-unified-5h-reset': String(Math.floor(now / 1000) + resetInS),
      };
      readings.observeWindows(t.connection.view.id, readHeaderSignals(200, headers, now).windows, now, null);
      store.served(t, 50);
    };
    serve(0, '0.2', 4 * 3600);
    serve(1, '0.5', 600);
    expect(names(store.order(combo, plan(), hints(), now + 1))).toEqual(['b', 'a', 'c']);
    // Past b's reset its window counts as empty and unknown-dated: a comes first again.
    expect(names(store.order(combo, plan(), hints(), now + 601_000))[0]).toBe('a');
  });

  it('ROUTE-1: leeway and cost-optimized read the served utilisation and the price table', () => {
    const readings = createWindowReadings();
    const store = createStrategyStore(seededRng(1), { readings });
    const h = setup('leeway');
    const [a, b] = h.plan();
    if (!a || !b) throw new Error('targets');
    const report = (t: Target, used: string) =>
      readings.observeWindows(
        t.connection.view.id,
        readHeaderSignals(200, { 'anthropic-ratelimit-unified-5h-utilization': used }, 0).windows,
        0,
        null,
      );
    report(a, '0.9');
    report(b, '0.1');
    store.served(a, 10);
    store.served(b, 10);
    // 10 % left still ranks before unknown (c): leeway trusts what the provider said.
    expect(names(store.order(h.combo, h.plan(), hints(), 1))).toEqual(['b', 'a', 'c']);
    const c = setup('cost-optimized');
    // c serves claude-opus-4-1 (legacy $15/$75), a and b claude-haiku-4-5: cheaper first.
    expect(names(store.order(c.combo, c.plan(), hints(), 1))).toEqual(['a', 'b', 'c']);
  });

  it('ROUTE-1: cache-optimized and context-relay keep a conversation where it was served', () => {
    const store = createStrategyStore(seededRng(1));
    const { combo, plan } = setup('cache-optimized');
    const candidates = plan();
    store.order(combo, candidates, hints({ conversation: 'prefix:x' }), 1);
    const c = candidates[2];
    if (!c) throw new Error('no c');
    store.served(c, 5);
    expect(names(store.order(combo, plan(), hints({ conversation: 'prefix:x' }), 3))[0]).toBe('c');
    expect(names(store.order(combo, plan(), hints({ conversation: 'prefix:y' }), 3))[0]).toBe('a');
    expect(store.wantsConversation(combo)).toBe(true);
    expect(store.wantsConversation(setup('priority').combo)).toBe(false);
  });

  it('ROUTE-4: a 400 "too many tools" demotes that connection only for requests with at least that many tools', () => {
    const store = createStrategyStore(seededRng(1));
    const { combo, plan } = setup('priority');
    const tools = (n: number) =>
      Buffer.from(JSON.stringify({ tools: Array.from({ length: n }, (_, i) => ({ name: `t${i}` })) }));
    const candidates = plan();
    store.order(combo, candidates, hints({ body: tools(140) }), 1);
    const a = candidates[0];
    if (!a) throw new Error('no a');
    const bodyText = JSON.stringify({
      error: {
        message:
          "Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with length 140 instead.",
        code: 'array_above_max_length',
      },
    });
    store.failed(a, { kind: 'response', status: 400, headers: {}, bodyText, signals: NO_SIGNALS }, 2, tools(140));
    expect(names(store.order(combo, plan(), hints({ body: tools(129) }), 3))).toEqual(['b', 'c', 'a']);
    expect(names(store.order(combo, plan(), hints({ body: tools(128) }), 3))).toEqual(['a', 'b', 'c']);
    expect(names(store.order(combo, plan(), hints({ body: null }), 3))).toEqual(['a', 'b', 'c']);
  });

  it('ROUTE-5: with emergency fallback on, a target whose last failure was a 402 goes last until it serves again', () => {
    const store = createStrategyStore(seededRng(1));
    const { combo, plan } = setup('priority');
    const [a] = plan();
    if (!a) throw new Error('no a');
    store.failed(
      a,
      { kind: 'response', status: 402, headers: {}, bodyText: 'payment required', signals: NO_SIGNALS },
      1,
    );
    expect(names(store.order(combo, plan(), hints({ emergencyFallback: true }), 2))).toEqual(['b', 'c', 'a']);
    expect(names(store.order(combo, plan(), hints({ emergencyFallback: false }), 2))).toEqual(['a', 'b', 'c']);
    store.served(a, 10);
    expect(names(store.order(combo, plan(), hints({ emergencyFallback: true }), 4))).toEqual(['a', 'b', 'c']);
  });

  it('ROUTE-1: p2c and auto learn from failures: a failing target is not picked first', () => {
    const store = createStrategyStore(seededRng(2));
    for (const s of ['p2c', 'auto', 'fusion'] as const) {
      const { combo, plan } = setup(s);
      const [a] = plan();
      if (!a) throw new Error('no a');
      store.failed(a, { kind: 'response', status: 503, headers: {}, bodyText: 'overloaded', signals: NO_SIGNALS }, 1);
      for (let i = 0; i < 20; i++) expect(names(store.order(combo, plan(), hints(), 2))[0], s).not.toBe('a');
    }
  });
  it('ROUTE-1: round-robin with stickyRoundRobinLimit 2 (read at each pick) keeps a target for two picks in a row', () => {
    let limit = 2;
    const store = createStrategyStore(seededRng(1), { stickyRoundRobinLimit: () => limit });
    const { combo, plan } = setup('round-robin');
    const pickFirst = (at: number): string => {
      const candidates = plan();
      const first = store.order(combo, candidates, hints(), at)[0];
      if (!first) throw new Error('empty');
      store.picked(combo, first, candidates);
      return first.connection.view.name;
    };
    expect([1, 2, 3, 4, 5].map(pickFirst)).toEqual(['a', 'a', 'b', 'b', 'c']);
    // Back to 1 (the default): the next request rotates although c had only one pick.
    limit = 1;
    expect([6, 7].map(pickFirst)).toEqual(['a', 'b']);
    // Without the option the store behaves as before the setting existed.
    const plain = createStrategyStore(seededRng(1));
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      const candidates = plan();
      const first = plain.order(combo, candidates, hints(), i)[0];
      if (!first) throw new Error('empty');
      plain.picked(combo, first, candidates);
      seen.push(first.connection.view.name);
    }
    expect(seen).toEqual(['a', 'b', 'c', 'a']);
  });

  it('QPIPE-7: after the quota gate, p2c and auto order again with the factor in the score, not "penalised last"', () => {
    const store = createStrategyStore(seededRng(1));
    for (const s of ['p2c', 'auto'] as const) {
      const { combo, plan } = setup(s);
      const candidates = plan();
      const [a, b, c] = candidates;
      if (!a || !b || !c) throw new Error('targets');
      // c fails twice: clearly the worst. a is penalised by its pool.
      store.failed(c, { kind: 'response', status: 429, headers: {}, bodyText: 'rate limited', signals: NO_SIGNALS }, 1);
      store.failed(c, { kind: 'response', status: 429, headers: {}, bodyText: 'rate limited', signals: NO_SIGNALS }, 1);
      store.order(combo, candidates, hints(), 2);
      const penalized = new Set([a.connection.view.id]);
      // Two left after the gate (the third held), in its blunt order: unpenalised first, then a.
      const rescore = (gated: Target[], factor: number) =>
        names(store.rescorePenalized(combo, gated, penalized, factor, null, 2));
      expect(rescore([b, a], 0.7), s).toEqual(['b', 'a']);
      // Lowered, never blocked: penalised a still ranks before the failing c.
      expect(rescore([c, a], 0.7), s).toEqual(['a', 'c']);
      // Factor 0: a penalised candidate goes after every unpenalised one.
      expect(rescore([c, a], 0), s).toEqual(['c', 'a']);
      // All three: the listed positions are the plan's (p2c's position term), the result keeps every one.
      expect(names(store.rescorePenalized(combo, [b, c, a], penalized, 0.7, null, 2)).sort(), s).toEqual([
        'a',
        'b',
        'c',
      ]);
    }
  });

  it('QPIPE-7: re-scoring leaves the order alone for unscored strategies, a decided pin, or nobody penalised', () => {
    const store = createStrategyStore(seededRng(1));
    const scored = setup('p2c');
    const candidates = scored.plan();
    const [a, b, c] = candidates;
    if (!a || !b || !c) throw new Error('targets');
    store.order(scored.combo, candidates, hints(), 1);
    const gated = [b, c, a];
    const penalized = new Set([a.connection.view.id]);
    expect(store.rescorePenalized(scored.combo, gated, penalized, 0.7, a.connection.view.id, 1)).toBe(gated);
    expect(store.rescorePenalized(scored.combo, gated, new Set(), 0.7, null, 1)).toBe(gated);
    expect(store.rescorePenalized(null, gated, penalized, 0.7, null, 1)).toBe(gated);
    const rr = setup('round-robin');
    const rrCandidates = rr.plan();
    store.order(rr.combo, rrCandidates, hints(), 1);
    expect(store.rescorePenalized(rr.combo, rrCandidates, penalized, 0.7, null, 1)).toBe(rrCandidates);
  });
});
