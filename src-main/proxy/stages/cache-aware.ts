import type { TargetExclusion } from '../../../src-shared/domain/cooldown';
import { afterAnswer, isWarm, lostBy, type CacheMark } from '../../routing/affinity/prompt-cache';
import type { Target } from '../../kernel/target';
import { priceOf } from '../../quota/engine/price-table';
import type { ProxyContext } from '../proxy-context';
import type { Failed } from './pass-result';
import { noTarget, type NoTarget } from './no-target-error';
import type { PinPlan } from './plan';

/**
 * Issue 24 §3, cache-aware failover: a session's prompt cache lives with the account that served it.
 * When that account is only briefly rate limited (≤ the `cacheWaitMs` setting) and the cache is
 * warm, the request waits for it (a cooling plan naming that connection alone, which the request
 * loop holds for, CONC-7) instead of moving and paying for a cold cache elsewhere.
 */
export function cacheHold(
  ctx: Pick<ProxyContext, 'config' | 'sessions'>,
  model: string,
  pinKey: string,
  excluded: readonly TargetExclusion[],
  now: number,
): NoTarget | null {
  const waitMs = ctx.config.settings().cacheWaitMs;
  if (waitMs <= 0) return null;
  const cache = ctx.sessions.promptCache.get(pinKey)?.current;
  if (!isWarm(cache, now)) return null;
  const mine = excluded.find((e) => e.connection === cache.connection && e.reason === 'unavailable');
  if (!mine || mine.retryAfterSeconds === null || mine.retryAfterSeconds * 1000 > waitMs) return null;
  const none = noTarget(model, [mine]);
  return none.kind === 'cooling' ? none : null;
}

/** The pinned account answered a short 429 with a warm cache: end the pass cooling, so the loop waits for it. */
export function waitsForCache(ctx: ProxyContext, model: string, pin: PinPlan | null, record: Failed): boolean {
  if (!pin || !ctx.engines.cooldownWait.settings().enabled) return false;
  const answer = record.answer;
  if (answer.kind !== 'upstream-error' || answer.status !== 429) return false;
  const now = ctx.now();
  // What the engines learnt from the 429 decides: the connection must be back within the setting.
  const screened = ctx.engines.resilience.screen([record.target], now);
  return cacheHold(ctx, model, pin.key, screened.excluded, now) !== null;
}

/** The warm cache a move to `target` throws away, priced as what rebuilding it costs more than reading it. */
export interface CacheLoss {
  connection: string;
  tokens: number;
  usd: number;
}

export function cacheLossOf(ctx: ProxyContext, pin: PinPlan | null, target: Target): CacheLoss | null {
  if (!pin) return null;
  const lost = lostBy(ctx.sessions.promptCache.get(pin.key), target.connection.view.id, ctx.now());
  return lost ? { connection: lost.connection, tokens: lost.tokens, usd: rebuildUsd(lost) } : null;
}

function rebuildUsd(mark: CacheMark): number {
  const price = priceOf(mark.model);
  if (!price) return 0;
  const write = price.cacheWrite ?? price.input;
  const read = price.cacheRead ?? price.input;
  return Math.max(0, ((write - read) * mark.tokens) / 1_000_000);
}

/** After a served answer: its usage says how big the session's cache now is, and where. */
export function learnCache(
  ctx: ProxyContext,
  pin: PinPlan | null,
  target: Target,
  usage: { cacheReadTokens: number | null; cacheWriteTokens: number | null } | null | undefined,
): void {
  if (!pin || !usage) return;
  const tokens = (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0);
  if (tokens <= 0) return;
  const now = ctx.now();
  const mark: CacheMark = {
    connectionId: target.connection.view.id,
    connection: target.connection.view.name,
    model: target.upstreamModel,
    tokens,
    lastUsedAt: now,
  };
  ctx.sessions.promptCache.set(pin.key, afterAnswer(ctx.sessions.promptCache.get(pin.key), mark, now));
}
