import type { AttemptHooks, PrepareResult, ProviderHooks } from '../provider-hooks';
import type { RuntimeConnection } from '../../kernel/catalog';
import type { ClaudeRuntime } from './claude-runtime';
import { readClaudeUnified } from './lane/claude-unified';
import { laneWaitDeadline, USAGE_LIMIT_HEADER, USAGE_LIMIT_SLOW } from './lane/lane-constants';

type Prepared = Extract<Awaited<ReturnType<ClaudeRuntime['prepare']>>, { ok: true }>;

const SLOW_HEADERS: Record<string, string> = { [USAGE_LIMIT_HEADER]: USAGE_LIMIT_SLOW };

/**
 * Claude subscription connections' hooks: a fresh token before each send, one re-send after a 401
 * with a refreshed token, and the usage-wall handling (limit reset, low-priority lane with slot
 * waits) that re-sends the same request on the same connection (LOWP-4, LOWP-6, RESET-6).
 */
export function createClaudeHooks(claude: ClaudeRuntime): ProviderHooks {
  return {
    forAttempt(connection, request) {
      if (connection.view.kind !== 'claude-oauth') return null;
      return claudeAttempt(claude, connection, laneWaitDeadline(request.startedAt, request.responseTimeoutMs));
    },
  };
}

function claudeAttempt(
  claude: ClaudeRuntime,
  connection: RuntimeConnection,
  deadlineMs: number | undefined,
): AttemptHooks {
  // The catalog entry this request started with; after a refresh its secret is stale, so later rounds use the new one.
  let current = connection;
  let refreshedAfter401 = false;
  let via: string | null = null;
  let sent: Prepared | null = null;
  return {
    get via() {
      return via;
    },
    async prepare(): Promise<PrepareResult> {
      const prep = await claude.prepare(current);
      if (!prep.ok)
        return {
          ok: false,
          message: prep.message,
          credentialReason: prep.needsReauth ? 'needs_reauth' : 'refresh_failed',
        };
      sent = prep;
      return { ok: true, secret: prep.secret, headers: prep.sentSlow ? SLOW_HEADERS : undefined };
    },
    async afterResponse({ status, headers }) {
      if (!sent) return { kind: 'accept', wallResetAt: null };
      if (status === 401 && !refreshedAfter401) {
        // An access token can die before its stated expiry; one refresh, shared by every request that saw it.
        refreshedAfter401 = true;
        const fresh = await claude.refreshAfterUnauthorized(current, sent.secret.accessToken);
        if (fresh.ok) {
          current = { ...current, secret: fresh.secret };
          return { kind: 'retry', delayMs: 0 };
        }
      }
      // The unified headers are read once here; the lane and the wall reset take the value.
      const unified = readClaudeUnified(headers);
      const decision = await claude.afterResponse(
        current,
        sent.secret,
        { status, unified },
        sent.sentSlow,
        deadlineMs,
        via === 'limit-reset',
      );
      if (decision.kind !== 'retry')
        return { kind: 'accept', wallResetAt: status === 429 ? claude.wallResetAt(unified.lane) : null };
      via = via === 'limit-reset' ? via : decision.via;
      return { kind: 'retry', delayMs: decision.delayMs };
    },
  };
}
