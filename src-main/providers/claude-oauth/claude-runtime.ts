import type { ClaudeConnectionStatus, ClaudeUsage } from '../../../src-shared/domain/claude';
import type { ConnectionSecret } from '../../../src-shared/domain/connection';
import { attemptClaudeLimitReset } from './reset/attempt-limit-reset';
import type { FetchJson } from './reset/fetch-json';
import { createLimitResetStore } from './reset/limit-reset-store';
import type { ClaudeUnified } from './lane/claude-unified';
import { isLaneEligible, laneKey, readLaneOptIns } from './lane/lane-config';
import { applyClaimOutcome, planWallResponse, settleClaim } from './lane/lane-handler';
import type { LaneDecision } from './lane/lane-state';
import { clearLaneCoolOffs, listLaneCoolOffs } from './lane/lane-cool-off';
import { EMPTY_LANE_STORE, shouldSendSlow, type LaneStore } from './lane/lane-store';
import { snapshotLane } from './lane/lane-snapshot';
import { isAtWall, type UnifiedHeaders } from './lane/unified-headers';
import type { UsageWindows } from './lane/usage-windows';
import type { RuntimeConnection } from '../../kernel/catalog';
import type { OAuthTokens } from './oauth-tokens';

export type { ClaudeConnectionStatus };

type OAuthSecret = Extract<ConnectionSecret, { type: 'oauth' }>;

export interface ClaudeRuntimeDeps {
  tokens: OAuthTokens;
  fetchJson: FetchJson;
  now(): number;
  random(): number;
  onChange(): void;
  /** Saves an organisation UUID learned from the bootstrap endpoint (RESET-5). */
  saveOrganizationUuid(connectionId: string, uuid: string): void;
}

/**
 * Claude subscription handling around one upstream attempt: fresh tokens, the usage windows of
 * every response, the low-priority lane and the limit reset. Lane, memo and usage state live in
 * memory only (LOWP-13).
 */
export function createClaudeRuntime(deps: ClaudeRuntimeDeps) {
  let lanes: LaneStore = EMPTY_LANE_STORE;
  const resets = createLimitResetStore();
  const usage = new Map<string, ClaudeUsage>();
  let usageListener: ((connectionId: string, observed: ClaudeUsage) => void) | null = null;
  const lastReset = new Map<string, { outcome: string; reason: string; at: number }>();
  const lastVia = new Map<string, { via: string; at: number }>();

  const keyOf = (c: RuntimeConnection) => laneKey(c.view.id, null);
  const eligible = (c: RuntimeConnection, secret: OAuthSecret) => isLaneEligible(c.view.kind, secret.accessToken, null);

  return {
    /** Before a fetch: a token that is not about to expire, and whether to ask for the slow lane. */
    async prepare(
      c: RuntimeConnection,
    ): Promise<
      { ok: true; secret: OAuthSecret; sentSlow: boolean } | { ok: false; message: string; needsReauth: boolean }
    > {
      const stored = c.secret;
      if (stored?.type !== 'oauth') return { ok: false, message: 'no OAuth token stored', needsReauth: false };
      let secret: OAuthSecret = stored;
      if (deps.tokens.isDue(stored, deps.now())) {
        const fresh = await deps.tokens.ensureFresh(c.view.id);
        if (!fresh.ok) return { ok: false, message: fresh.message, needsReauth: fresh.reason === 'needs_reauth' };
        secret = fresh.secret;
      }
      return { ok: true, secret, sentSlow: eligible(c, secret) && shouldSendSlow(lanes, keyOf(c), deps.now()) };
    },

    /** After a 401: one refresh (shared with concurrent requests) unless the token was already replaced. */
    refreshAfterUnauthorized: (c: RuntimeConnection, usedToken: string) =>
      deps.tokens.ensureFresh(c.view.id, usedToken),

    /**
     * After the final response of a fetch: record the usage windows, then let the lane and the
     * reset decide whether the same request goes out again on the same connection. `resetTried`:
     * this request was already retried after a (possibly memoised) reset, so a wall now goes on to
     * the lane or cooldown instead of asking the reset again (no full-speed retry loop).
     */
    async afterResponse(
      c: RuntimeConnection,
      secret: OAuthSecret,
      response: { status: number; unified: ClaudeUnified },
      sentSlow: boolean,
      waitDeadlineMs: number | undefined,
      resetTried = false,
    ): Promise<LaneDecision> {
      const now = deps.now();
      const windows: UsageWindows | null = response.unified.usage;
      if (windows) {
        const observed = { ...windows, observedAt: now };
        usage.set(c.view.id, observed);
        usageListener?.(c.view.id, observed);
      }
      if (!eligible(c, secret)) {
        if (windows) deps.onChange();
        return { kind: 'none' };
      }
      const optIns = readLaneOptIns(c.view.providerSpecificData);
      if (resetTried) optIns.autoLimitReset = false;
      const input = {
        key: keyOf(c),
        status: response.status,
        unified: response.unified.lane,
        sentSlow,
        ...(waitDeadlineMs === undefined ? {} : { waitDeadlineMs }),
      };
      const plan = planWallResponse(lanes, input, optIns, now, deps.random);
      lanes = plan.state;
      let decision: LaneDecision;
      if (plan.kind === 'claim') {
        const outcome = await settleClaim(async () => {
          const result = await attemptClaudeLimitReset({
            key: c.view.id,
            accessToken: secret.accessToken,
            baseUrl: c.origin + c.basePath,
            providerSpecificData: c.view.providerSpecificData,
            now: deps.now(),
            fetchJson: deps.fetchJson,
            store: resets,
          });
          lastReset.set(c.view.id, { outcome: result.outcome, reason: result.reason, at: deps.now() });
          if (result.discoveredOrganizationUuid)
            deps.saveOrganizationUuid(c.view.id, result.discoveredOrganizationUuid);
          return { reset: result.reset };
        });
        const applied = applyClaimOutcome(lanes, plan.pending, outcome, deps.now());
        lanes = applied.state;
        decision = applied.decision;
      } else decision = plan.decision;
      if (decision.kind === 'retry' && (decision.via === 'limit-reset' || decision.via === 'low-priority-accepted')) {
        lastVia.set(c.view.id, { via: decision.via, at: now });
      }
      if (windows || decision.kind !== 'none') deps.onChange();
      return decision;
    },

    /** Issue 24 §4: one listener for every usage observation of this instance (the team shares it). */
    onUsage(listener: (connectionId: string, observed: ClaudeUsage) => void): void {
      usageListener = listener;
    },

    /** A usage observation another instance made; the later `observedAt` wins. False when ours is as new. */
    absorbUsage(connectionId: string, observed: ClaudeUsage): boolean {
      const local = usage.get(connectionId);
      if (local !== undefined && local.observedAt >= observed.observedAt) return false;
      usage.set(connectionId, observed);
      deps.onChange();
      return true;
    },

    /** The announced reset of a usage wall (epoch ms), so a wall nobody handled cools until then, not a guess. */
    wallResetAt(h: UnifiedHeaders): number | null {
      if (!isAtWall(h)) return null;
      const seconds = h.resetSeconds ?? h.fiveHourResetSeconds;
      return seconds === undefined ? null : seconds * 1000;
    },

    /** PROD-4: lifts the lane's max-wait cool-offs, one connection's or all; returns how many were lifted. */
    clearCoolOffs(connectionId?: string): number {
      const now = deps.now();
      const key = connectionId === undefined ? undefined : laneKey(connectionId, null);
      const lifted = listLaneCoolOffs(lanes, now).filter((row) => key === undefined || row.key === key).length;
      if (lifted === 0) return 0;
      lanes = clearLaneCoolOffs(lanes, now, key);
      deps.onChange();
      return lifted;
    },

    status(connections: readonly RuntimeConnection[]): ClaudeConnectionStatus[] {
      const now = deps.now();
      return connections
        .filter((c) => c.view.kind === 'claude-oauth')
        .map((c) => ({
          connectionId: c.view.id,
          usage: usage.get(c.view.id) ?? null,
          lane: snapshotLane(lanes, keyOf(c), now),
          lastReset: lastReset.get(c.view.id) ?? null,
          lastVia: lastVia.get(c.view.id) ?? null,
        }));
    },
  };
}

export type ClaudeRuntime = ReturnType<typeof createClaudeRuntime>;
