import { createHash } from 'node:crypto';
import type { ComboView } from '../../../src-shared/domain/combo';
import type { WireFormat } from '../../../src-shared/domain/connection';
import type { TargetExclusion } from '../../../src-shared/domain/cooldown';
import type { LocalKeyView } from '../../../src-shared/domain/local-key';
import type { Settings } from '../../../src-shared/domain/settings';
import { pinKeyOf, type Pin, type PinScope } from '../../routing/affinity/pin';
import { orderByPin } from '../../routing/affinity/pin-order';
import { pinSessionOf, subagentModeOf } from '../../routing/affinity/agent-key';
import { refusingFormat, resolveTargets, type Exclusion, type FormatRefusal } from '../../routing/resolve-targets';
import { type Target } from '../../kernel/target';
import { emergencyFallbackEnabled } from '../../routing/strategies/emergency-fallback';
import { exclusionLogFor } from './exclusion-log';
import { cacheHold } from './cache-aware';
import { warmReturn } from '../../routing/affinity/prompt-cache';
import type { ProxyContext } from '../proxy-context';
import { quoteUserText } from '../accept/quote-user-text';
import { noConnectionsError, noTarget, type NoTarget } from './no-target-error';

/** The session's pin as the plan saw it: the learn stage extends, creates or moves it. */
export interface PinPlan {
  scope: PinScope;
  /** `pinKeyOf(scope)`, built once: the learn stage stores the pin under it. */
  key: string;
  stored: Pin | undefined;
  /** The connection id the pin put first, when a live pin decided the order. */
  decided: string | null;
}

/**
 * The plan stage's answer: candidates in order, or why there are none — `cooling` when only timers
 * stand in the way (the request loop may wait, CONC-7), `refused` otherwise.
 */
export type Plan = CandidatesPlan | NoTarget;

export interface CandidatesPlan {
  kind: 'candidates';
  candidates: readonly Target[];
  /** What routing left out and why; the admit stage adds its own. */
  excluded: TargetExclusion[];
  combo: ComboView | null;
  pin: PinPlan | null;
  /** Set for a pool's `qtSd/` combo: its candidates wait for their slot (CONC-3); release ends the pick's in-flight lease. */
  quotaShare: { release(): void } | null;
}

const connectionIdOf = (t: Target) => t.connection.view.id;

const FORMAT_NAMES = { anthropic: 'Anthropic-format', openai: 'OpenAI-format', gemini: 'Gemini-format' } as const;

/** "is served by OpenAI-format connection o1 only; it does not accept translated requests". */
function servedOnlyBy(refusing: readonly FormatRefusal[]): string {
  const groups = new Map<string, string[]>();
  for (const r of refusing)
    groups.set(FORMAT_NAMES[r.format], [...(groups.get(FORMAT_NAMES[r.format]) ?? []), r.connection]);
  const shown = [...groups].map(([format, names]) => {
    const listed = names.slice(0, 5).join(', ') + (names.length > 5 ? ', …' : '');
    return `${format} connection${names.length === 1 ? '' : 's'} ${listed}`;
  });
  const one = refusing.length === 1;
  return `is served by ${shown.join(' and ')} only; ${one ? 'it does' : 'they do'} not accept translated requests`;
}

function asExclusion(e: Exclusion): TargetExclusion {
  return { connection: e.connection, model: null, reason: e.reason, retryAfterSeconds: null };
}

/** A key's `allowedConnections` (empty = all) restricts normal routing too (LEASE-3 keys and others). */
function allowedFor(key: LocalKeyView, targets: readonly Target[], excluded: TargetExclusion[]): readonly Target[] {
  if (key.allowedConnections.length === 0) return targets;
  const allowed = targets.filter((t) => key.allowedConnections.includes(t.connection.view.name));
  if (allowed.length === targets.length) return targets;
  for (const t of targets) {
    if (!key.allowedConnections.includes(t.connection.view.name)) {
      excluded.push({
        connection: t.connection.view.name,
        model: t.upstreamModel,
        reason: 'not_allowed',
        retryAfterSeconds: null,
      });
    }
  }
  return allowed;
}

/** Coding agents put the system prompt and tool list first: 8 KiB of it identifies the conversation's cache. */
const STABLE_PREFIX_BYTES = 8 * 1024;

/** `cache-optimized` without a session header: a hash of the body's stable prefix (only computed then). */
function prefixHashOf(body: Buffer): string {
  return `prefix:${createHash('sha1')
    .update(body.subarray(0, Math.min(body.length, STABLE_PREFIX_BYTES)))
    .digest('base64url')}`;
}

type PlanInput = {
  model: string;
  wire: WireFormat;
  key: LocalKeyView;
  session: string | null;
  /** Issue 23 §3: the subagent that sent it; its route's `subagents` says whether it shares the session's pin. */
  agent?: string | null;
  body?: Buffer;
  /** Issue 24 §2: the operator cut a hold short with "use any connection now". */
  goNow?: boolean;
};
type PlacedSession = ReturnType<typeof pinSessionOf>;
type Resolved = Extract<ReturnType<typeof resolveTargets>, { kind: 'targets' }>;

/**
 * The plan stage: model or route → candidates, each excluded one with its reason (unknown, the
 * key's allowlist, cooldowns, breakers, lockouts), then ordered by the combo's strategy and, on
 * top, the session's pin (soft, AFF-6: it only reorders what survived the filters).
 */
export function planRequest(ctx: ProxyContext, input: PlanInput): Plan {
  const resolution = resolveTargets(ctx.config.catalog(), input.model, input.wire);
  if (resolution.kind === 'unknown_model') return unknownModel(ctx, input, resolution.available);
  const excluded: TargetExclusion[] = resolution.excluded.map(asExclusion);
  const allowed = allowedFor(input.key, resolution.targets, excluded);
  const now = ctx.now();
  const screened = ctx.engines.resilience.screen(allowed, now);
  for (const e of screened.excluded) excluded.push(e);
  // Issue 24 §2: "use any connection now" tries what the screen held back rather than waiting again.
  const runnable = screened.runnable.length === 0 && input.goNow === true ? allowed : screened.runnable;
  // One read of the settings for the whole plan (a change applies from the next request).
  const settings = ctx.config.settings();
  const placed = settings.sessionAffinityTtlMs > 0 ? placedSession(ctx, input, resolution.route) : null;
  // The pin's scope and key, built once: the key is a long string that each map lookup hashes.
  const scope = placed ? scopeOf(input, placed, resolution) : null;
  const pinKey = scope ? pinKeyOf(scope) : null;
  // Issue 24 §3: a warm prompt cache on a briefly limited pinned account is waited for, not left.
  const cached = pinKey !== null && input.goNow !== true ? cacheHold(ctx, input.model, pinKey, excluded, now) : null;
  if (cached) return cached;
  if (runnable.length === 0) return nothingRunnable(ctx, input.model, resolution, excluded, now);
  // ROUTE-10/11: a pool's system combo is ordered by the quota-share scheduler, never a public strategy.
  const share = resolution.system ? ctx.engines.quotaShare.order(resolution.system, runnable, input.model, now) : null;
  const conversationOf = placed ?? placedSession(ctx, input, resolution.route);
  const ordered = share
    ? share.ordered
    : orderedByStrategy(ctx, input, conversationOf, resolution, runnable, settings, now);
  const quotaShare = share ? { release: share.release } : null;
  const combo = resolution.combo;
  if (scope === null || pinKey === null)
    return { kind: 'candidates', excluded, combo, quotaShare, candidates: ordered, pin: null };
  const pinned = withPin(ctx, scope, pinKey, ordered, settings.sessionAffinityTtlMs, now);
  return { kind: 'candidates', excluded, combo, quotaShare, candidates: pinned.candidates, pin: pinned.pin };
}

/**
 * The session the request is placed by (issue 23 §3): the client's, or `session/agent` for a
 * subagent whose route spreads subagents; null without a session.
 */
function placedSession(ctx: ProxyContext, input: PlanInput, route: string | null): PlacedSession | null {
  if (input.session === null) return null;
  const agent = input.agent ?? null;
  if (agent === null) return { session: input.session };
  return pinSessionOf(input.session, agent, subagentModeOf(ctx.config.catalog().routes, route));
}

/** AFF-7: scoped to the key, the session and what was asked for (a route by its glob, so every model it catches shares one pin). */
function scopeOf(input: PlanInput, placed: PlacedSession, resolution: Resolved): PinScope {
  const target = resolution.route === null ? input.model : `route:${resolution.route}`;
  // A literal (no spread): the plan runs per request, and a spread with added keys is slow on Node 20.
  if (placed.agent === undefined) return { keyId: input.key.id, session: placed.session, target };
  return { keyId: input.key.id, session: placed.session, target, agent: placed.agent };
}

/** The combo's strategy orders what survived the screen. */
function orderedByStrategy(
  ctx: ProxyContext,
  input: PlanInput,
  placed: PlacedSession | null,
  resolution: Resolved,
  runnable: readonly Target[],
  settings: Settings,
  now: number,
): readonly Target[] {
  const body = input.body ?? null;
  const combo = resolution.combo;
  const conversation =
    placed?.session ?? (body !== null && ctx.engines.roundRobin.wantsConversation(combo) ? prefixHashOf(body) : null);
  const emergencyFallback = emergencyFallbackEnabled(
    ctx.config.emergencyFallbackEnv === true,
    settings.emergencyFallback,
  );
  return ctx.engines.roundRobin.order(combo, runnable, { body, conversation, emergencyFallback }, now);
}

/** The session's pin on top of the strategy's order; a session moved off its account goes back while the cache there is warm. */
function withPin(
  ctx: ProxyContext,
  scope: PinScope,
  pinKey: string,
  ordered: readonly Target[],
  ttlMs: number,
  now: number,
): Pick<CandidatesPlan, 'candidates' | 'pin'> {
  const stored = ctx.sessions.affinity.get(pinKey);
  const proposal = orderByPin(ordered, connectionIdOf, stored, ttlMs, now);
  // Issue 24 §3: back to the old account while its prompt cache is still warm.
  const back = warmReturn(ctx.sessions.promptCache.get(pinKey), now);
  const home = back ? proposal.order.find((t) => connectionIdOf(t) === back.connectionId) : undefined;
  if (home) {
    const order = [home, ...proposal.order.filter((t) => t !== home)];
    return { candidates: order, pin: { scope, key: pinKey, stored, decided: connectionIdOf(home) } };
  }
  const decided = proposal.kind === 'pinned' ? proposal.connectionId : null;
  return { candidates: proposal.order, pin: { scope, key: pinKey, stored, decided } };
}

/** Issue 13 §6: an unknown model says which API format does serve it, when only the format stands in the way. */
function unknownModel(ctx: ProxyContext, input: PlanInput, available: readonly string[]): Plan {
  const nothing = noConnectionsError(ctx.config.catalog(), ctx.config.dashboardUrl);
  if (nothing) return { kind: 'refused', error: nothing };
  const list = available.slice(0, 50).join(', ') || 'none configured';
  const refusing = refusingFormat(ctx.config.catalog(), input.model, input.wire);
  const served = refusing.length === 0 ? 'is not served by any connection' : servedOnlyBy(refusing);
  return {
    kind: 'refused',
    error: {
      code: 'model_not_found',
      message: `Model ${quoteUserText(input.model)} ${served}. Available: ${list}`,
      details: { available },
    },
  };
}

/** Everything screened out: no connection at all, cooling (ROUTE-6/7, logged once per model per window) or refused. */
function nothingRunnable(
  ctx: ProxyContext,
  model: string,
  resolution: Resolved,
  excluded: readonly TargetExclusion[],
  now: number,
): Plan {
  const nothing = noConnectionsError(ctx.config.catalog(), ctx.config.dashboardUrl);
  if (nothing) return { kind: 'refused', error: nothing };
  const none = noTarget(model, excluded);
  if (none.kind === 'cooling') {
    const parts = excluded.map(
      (e) => `${e.connection}=${e.reason}${e.retryAfterSeconds === null ? '' : `:${e.retryAfterSeconds}s`}`,
    );
    exclusionLogFor(ctx, ctx.host.log).report(model, resolution.combo !== null, parts, now);
  }
  return none;
}
