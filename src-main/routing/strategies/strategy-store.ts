import type { ComboView } from '../../../src-shared/domain/combo';
import type { WindowReadings } from '../../quota/runtime/window-readings';
import { priceOf } from '../../quota/engine/price-table';
import type { UpstreamOutcome } from '../../kernel/attempt-outcome';
import type { RuntimeConnection } from '../../kernel/catalog';
import type { Target } from '../../kernel/target';
import { isBudgetFailure } from './emergency-fallback';
import { NO_HEALTH, NO_QUOTA, NO_USAGE, type CandidateFacts, type HealthFacts, type UsageFacts } from './facts';
import { countsAsFailure, failedHealth, pickedUsage, servedHealth } from './health-memory';
import { contextWindowOf } from './model-context-windows';
import { orderByStrategy } from './order-strategy';
import { shuffle } from './random-orders';
import {
  DEFAULT_STICKY_LIMIT,
  EMPTY_PICKS,
  orderRoundRobin,
  pickKeyOf,
  recordPick,
  type PickState,
} from './round-robin';
import { DEFAULT_SOFT_PENALTY_FACTOR } from './soft-penalty';
import { countTools, demoteByTools, toolsLimitFrom } from './tools-limit';
import type { PlanNote } from '../../kernel/plan-note';

type Planned = PlanNote;

/** What the plan knows of the request beyond the model (all optional: missing means "don't know"). */
export interface RequestHints {
  /** The raw request body already in memory (tool count, prompt-size estimate). */
  body: Buffer | null;
  /** `cache-optimized` / `context-relay`: the session key, else a hash of the body's stable prefix. */
  conversation: string | null;
  /** ROUTE-5: whether emergency fallback is on for this request. */
  emergencyFallback: boolean;
}

/** Settings the store reads at each use (so a change applies to the next request). */
export interface StrategyOptions {
  /** `round-robin`: picks in a row the most recent target keeps (1..100, default 1 = always rotate). */
  stickyRoundRobinLimit?: () => number;
  /**
   * The providers' reports of their windows, kept once (quota/runtime/window-readings.ts, written by
   * the quota runtime's `record`): the quota-aware strategies rank by them (ROUTE-2). Absent: none known.
   */
  readings?: Pick<WindowReadings, 'binding'>;
}

/** The strategies whose order comes from a numeric score: QPIPE-7's factor applies inside it. */
const SCORED: ReadonlySet<ComboView['strategy']> = new Set(['p2c', 'auto']);

/** The combos' strategy memory, in memory only: a restart starts every rotation and statistic over. */
export interface StrategyStore {
  /** Whether `combo`'s strategy uses a conversation key (the plan hashes the prefix only then). */
  wantsConversation(combo: ComboView | null): boolean;
  /** The candidates in the combo's strategy order, then ROUTE-4 and ROUTE-5 demotions; never drops one. */
  order(combo: ComboView | null, candidates: readonly Target[], hints: RequestHints, now: number): readonly Target[];
  /**
   * QPIPE-7, after the admit stage's quota gate: a `p2c` or `auto` combo orders again with the soft
   * penalty inside each penalised candidate's score (× `factor`) instead of the gate's "after every
   * other". Any other strategy, no penalised candidate, or a session pin that decided (`pinned`):
   * the same array back.
   */
  rescorePenalized(
    combo: ComboView | null,
    candidates: readonly Target[],
    penalized: ReadonlySet<string>,
    factor: number,
    pinned: string | null,
    now: number,
  ): readonly Target[];
  /** The strategy picked `target` for a request no pin decided. */
  picked(combo: ComboView, target: Target, candidates: readonly Target[]): void;
  /** A served answer: health, latency, last known good, the conversation's home (its windows: the quota runtime's readings). */
  served(target: Target, ttfbMs: number | null): void;
  /** A failed attempt: health, ROUTE-4's tool limit, ROUTE-5's budget mark. */
  failed(target: Target, outcome: UpstreamOutcome, now: number, body?: Buffer | null): void;
}

/**
 * Memory keys per connection and model, built once: a key depends only on the connection's id and
 * the model, and a catalog reload brings new connection objects (so nothing here goes stale).
 * Any-model connections pass client model names through: bounded, starts over when full.
 */
const pickKeys = new WeakMap<RuntimeConnection, Map<string, string>>();
const MAX_KEYS_PER_CONNECTION = 256;

function keyOf(t: Target): string {
  let byModel = pickKeys.get(t.connection);
  if (!byModel) pickKeys.set(t.connection, (byModel = new Map()));
  let key = byModel.get(t.upstreamModel);
  if (key === undefined) {
    if (byModel.size >= MAX_KEYS_PER_CONNECTION) byModel.clear();
    key = pickKeyOf(t.connection.view.id, t.upstreamModel);
    byModel.set(t.upstreamModel, key);
  }
  return key;
}
const idOf = (t: Target) => t.connection.view.id;
const MAX_CONVERSATIONS = 1_000;

function weightOf(combo: ComboView, t: Target): number {
  const name = t.connection.view.name;
  const exact = combo.targets.find((c) => c.connection === name && c.model === t.upstreamModel);
  return (exact ?? combo.targets.find((c) => c.connection === name))?.weight ?? 1;
}

function priceFor(model: string): number | null {
  const p = priceOf(model);
  return p ? p.input + p.output : null;
}

export function createStrategyStore(rng: () => number = Math.random, options: StrategyOptions = {}): StrategyStore {
  const stickyLimit = options.stickyRoundRobinLimit ?? (() => DEFAULT_STICKY_LIMIT);
  let picks: PickState = EMPTY_PICKS;
  // A plan never refers to its targets, only they to it (a plan that held its targets kept both
  // alive through young-generation collections: ~250 bytes a request reached the old space).
  const self = {};
  const planOf = (t: Target): Planned | undefined => (t.plan?.owner === self ? t.plan : undefined);
  const listedAt = (t: Target): number | undefined =>
    t.plan?.owner === self && t.listedAt !== undefined && t.listedAt >= 0 ? t.listedAt : undefined;
  const health = new Map<string, HealthFacts>();
  const readings = options.readings ?? null;
  const usage = new Map<string, Map<string, UsageFacts>>();
  const lastPick = new Map<string, string>();
  const lastGood = new Map<string, string>();
  const conversations = new Map<string, Map<string, string>>();
  const decks = new Map<string, string[]>();
  const toolLimits = new Map<string, number>();
  const budgetFailed = new Set<string>();
  // Filled and read within one synchronous `served` call, so one record serves every response.

  const toolsOf = (p: Planned, body: Buffer | null): number => {
    if (p.tools === null && body !== null) p.tools = countTools(body);
    return p.tools ?? 0;
  };

  function factsOf(
    combo: ComboView,
    candidates: readonly Target[],
    now: number,
    indexOf: ((t: Target, at: number) => number) | null = null,
    penalized: ReadonlySet<string> | null = null,
  ): CandidateFacts[] {
    const used = usage.get(combo.name);
    const out: CandidateFacts[] = [];
    for (let at = 0; at < candidates.length; at++) {
      const t = candidates[at];
      if (t === undefined) continue;
      const key = keyOf(t);
      const id = idOf(t);
      out.push({
        key,
        connectionId: id,
        index: indexOf ? indexOf(t, at) : at,
        weight: weightOf(combo, t),
        usage: used?.get(key) ?? NO_USAGE,
        // Facts are read only: the shared "no history" record stands in for a target never served.
        health: health.get(id) ?? NO_HEALTH,
        quota: readings?.binding(id, now) ?? NO_QUOTA,
        price: priceFor(t.upstreamModel),
        contextWindow: contextWindowOf(t.upstreamModel),
        quotaSoftPenalty: penalized?.has(id) ?? false,
      });
    }
    return out;
  }

  function deckFor(combo: ComboView, keys: readonly string[]): string[] {
    const live = (decks.get(combo.name) ?? []).filter((k) => keys.includes(k));
    if (live.length > 0) return live;
    const fresh = shuffle(keys, rng);
    decks.set(combo.name, fresh);
    return fresh;
  }

  /** The strategy's order of `facts`, mapped back to targets through each fact's `index` into `byIndex`. */
  function strategyOrder(
    combo: ComboView,
    facts: readonly CandidateFacts[],
    byIndex: (index: number) => Target | undefined,
    hints: { bodyBytes: number | null; conversation: string | null },
    now: number,
    softPenaltyFactor = DEFAULT_SOFT_PENALTY_FACTOR,
  ): Target[] {
    const ordered = orderByStrategy(combo.strategy, facts, {
      now,
      rng,
      promptTokens: hints.bodyBytes === null ? null : Math.ceil(hints.bodyBytes / 4),
      lastGood: lastGood.get(combo.name) ?? null,
      conversationHome:
        hints.conversation === null ? null : (conversations.get(combo.name)?.get(hints.conversation) ?? null),
      roundRobin: picks.combos.get(combo.name),
      roundRobinRun: picks.runs.get(combo.name),
      stickyLimit: combo.strategy === 'round-robin' ? stickyLimit() : DEFAULT_STICKY_LIMIT,
      softPenaltyFactor,
      deck:
        combo.strategy === 'strict-random'
          ? deckFor(
              combo,
              facts.map((f) => f.key),
            )
          : [],
      pipelineCursor: lastGood.get(combo.name) ?? null,
    });
    const out: Target[] = [];
    for (const f of ordered) {
      const t = byIndex(f.index);
      if (t !== undefined) out.push(t);
    }
    return out;
  }

  /** ROUTE-4 and ROUTE-5 demotions, after the strategy (and again after a QPIPE-7 re-scoring). */
  function demote(ordered: readonly Target[], p: Planned, body: Buffer | null): readonly Target[] {
    let out = ordered;
    // ROUTE-4: only a request with at least the refused number of tools sends that target last.
    if (toolLimits.size > 0 && out.some((t) => toolLimits.has(idOf(t))))
      out = demoteByTools(out, (t) => toolLimits.get(idOf(t)) ?? null, toolsOf(p, body));
    // ROUTE-5: a target whose last failure was about money serves only when nothing else can.
    if (p.emergencyFallback && budgetFailed.size > 0 && out.some((t) => budgetFailed.has(idOf(t))))
      out = [...out.filter((t) => !budgetFailed.has(idOf(t))), ...out.filter((t) => budgetFailed.has(idOf(t)))];
    return out;
  }

  /** The combo strategy's order of the plan's candidates (the same array when nothing moves). */
  function strategyOrderOf(
    combo: ComboView | null,
    candidates: readonly Target[],
    hints: RequestHints,
    now: number,
  ): readonly Target[] {
    if (!combo || combo.strategy === 'priority' || candidates.length < 2) return candidates;
    // Round-robin reads only each candidate's key and listed place: order the targets themselves,
    // as `orderByStrategy` would order their facts, without building the facts.
    if (combo.strategy === 'round-robin')
      return orderRoundRobin(
        candidates,
        picks.combos.get(combo.name),
        keyOf,
        picks.runs.get(combo.name),
        stickyLimit(),
      );
    const bodyBytes = hints.body ? hints.body.length : null;
    return strategyOrder(
      combo,
      factsOf(combo, candidates, now),
      (i) => candidates[i],
      { bodyBytes, conversation: hints.conversation },
      now,
    );
  }

  return {
    wantsConversation: (combo) => combo?.strategy === 'cache-optimized' || combo?.strategy === 'context-relay',
    order(combo, candidates, hints, now) {
      // A request outside any combo has nothing to order unless a ROUTE-4/5 demotion is live: no memory
      // is kept for it (the common single-connection case pays nothing here or in `served`).
      if (combo === null && toolLimits.size === 0 && (!hints.emergencyFallback || budgetFailed.size === 0))
        return candidates;
      const p: Planned = {
        owner: self,
        combo,
        bodyBytes: hints.body ? hints.body.length : null,
        conversation: hints.conversation,
        emergencyFallback: hints.emergencyFallback,
        at: now,
        tools: null,
        listedCount: candidates.length,
      };
      for (let i = 0; i < candidates.length; i++) {
        const t = candidates[i];
        if (t === undefined) continue;
        t.plan = p;
        t.listedAt = i;
      }
      return demote(strategyOrderOf(combo, candidates, hints, now), p, hints.body);
    },
    rescorePenalized(combo, candidates, penalized, factor, pinned, now) {
      if (!combo || !SCORED.has(combo.strategy) || pinned !== null || candidates.length < 2) return candidates;
      if (!candidates.some((t) => penalized.has(idOf(t)))) return candidates;
      const first = candidates[0];
      const p = first ? planOf(first) : undefined;
      if (!p) return candidates;
      // Facts in the plan's listed order, each with its listed position (p2c's position term).
      const at = (t: Target) => listedAt(t) ?? p.listedCount;
      const inListed = [...candidates].sort((a, b) => at(a) - at(b));
      const byListed = new Map(inListed.map((t) => [at(t), t] as const));
      const facts = factsOf(combo, inListed, now, at, penalized);
      return demote(
        strategyOrder(combo, facts, (i) => byListed.get(i), p, now, factor),
        p,
        null,
      );
    },
    picked(combo, target, candidates) {
      const at = planOf(target)?.at ?? 0;
      const key = keyOf(target);
      const used = usage.get(combo.name) ?? new Map<string, UsageFacts>();
      used.set(key, pickedUsage(used.get(key), at, lastPick.get(combo.name) === key));
      usage.set(combo.name, used);
      lastPick.set(combo.name, key);
      if (combo.strategy === 'round-robin') picks = recordPick(picks, combo.name, key, candidates.map(keyOf));
      if (combo.strategy === 'strict-random')
        decks.set(
          combo.name,
          (decks.get(combo.name) ?? []).filter((k) => k !== key),
        );
    },
    served(target, ttfbMs) {
      const id = idOf(target);
      health.set(id, servedHealth(health.get(id), ttfbMs));
      budgetFailed.delete(id);
      const p = planOf(target);
      if (!p?.combo) return;
      lastGood.set(p.combo.name, keyOf(target));
      if (p.conversation !== null) {
        const homes = conversations.get(p.combo.name) ?? new Map<string, string>();
        homes.delete(p.conversation);
        homes.set(p.conversation, keyOf(target));
        // Oldest first in insertion order: the bound keeps memory flat for a long-running proxy.
        if (homes.size > MAX_CONVERSATIONS)
          for (const k of homes.keys()) if (homes.size > MAX_CONVERSATIONS) homes.delete(k);
        conversations.set(p.combo.name, homes);
      }
    },
    failed(target, outcome, _now, body = null) {
      const id = idOf(target);
      const status = outcome.kind === 'transport' ? 502 : outcome.status;
      if (countsAsFailure(status)) health.set(id, failedHealth(health.get(id), status));
      if (outcome.kind !== 'response') return;
      if (isBudgetFailure(outcome.status, outcome.bodyText)) budgetFailed.add(id);
      const p = planOf(target);
      const limit = toolsLimitFrom(outcome.status, outcome.bodyText, p ? toolsOf(p, body) : 0);
      if (limit !== null) toolLimits.set(id, Math.min(limit, toolLimits.get(id) ?? Number.POSITIVE_INFINITY));
    },
  };
}
