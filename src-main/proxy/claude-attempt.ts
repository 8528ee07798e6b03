import type { Dispatcher } from 'undici';
import type { ClaudeRuntime } from '../providers/claude-oauth/claude-runtime';
import type { UpstreamPools } from '../providers/upstream-pools';
import { USAGE_LIMIT_HEADER, USAGE_LIMIT_SLOW } from '../resilience/claude/lane-constants';
import { dispatchToTarget, type DispatchRequest, type DispatchResult } from './dispatch';
import type { KeepAlive } from './sse-keepalive';

/** One target's attempt as the request handler sees it, with what the Claude hooks did on the way. */
export type AttemptResult = DispatchResult & {
  /** `low-priority-accepted`, `limit-reset`, `slot-busy` … when the answer came after a lane or reset retry. */
  via: string | null;
  /** The announced end of a usage wall nobody handled: the connection cools until then (not a guess). */
  wallResetAt: number | null;
  /** Why a `credential` failure happened: a dead login (recorded as needs_reauth) or a refresh that failed for now. */
  credentialReason?: 'needs_reauth' | 'refresh_failed';
};

/** Waits that long or longer make a streaming client see keep-alive comments instead of silence. */
const KEEPALIVE_AFTER_MS = 5_000;
/** A bound on same-connection re-fetches; the lane's own max-wait ends far earlier in practice. */
const MAX_ROUNDS = 200;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

function drop(response: Dispatcher.ResponseData): void {
  response.body.on('error', () => undefined);
  response.body.resume();
}

/**
 * Sends a request to one target. Claude subscription connections get their provider hooks here,
 * before anything reaches the client: a fresh token, one re-try after a 401 with a refreshed token,
 * and the usage-wall handling (limit reset, low-priority lane with slot waits) that re-sends the
 * same request on the same connection (LOWP-4, LOWP-6, RESET-6).
 */
export async function attemptTarget(
  pools: UpstreamPools,
  claude: ClaudeRuntime | null,
  request: DispatchRequest,
  wait: { deadlineMs: number | undefined; stream: boolean; keepAlive: KeepAlive; keepAliveHeaders: Record<string, string> },
): Promise<AttemptResult> {
  const connection = request.target.connection;
  if (!claude || connection.view.kind !== 'claude-oauth') {
    return { ...(await dispatchToTarget(pools, request)), via: null, wallResetAt: null };
  }
  let via: string | null = null;
  let refreshedAfter401 = false;
  // The catalog entry this request started with; after a refresh its secret is stale, so later rounds use the new one.
  let current = connection;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const prep = await claude.prepare(current);
    if (!prep.ok) {
      const credentialReason = prep.needsReauth ? 'needs_reauth' : 'refresh_failed';
      return { kind: 'failed', reason: 'credential', message: prep.message, via, wallResetAt: null, credentialReason };
    }
    const extraHeaders = prep.sentSlow ? { ...request.extraHeaders, [USAGE_LIMIT_HEADER]: USAGE_LIMIT_SLOW } : request.extraHeaders;
    const result = await dispatchToTarget(pools, { ...request, secretOverride: prep.secret, ...(extraHeaders ? { extraHeaders } : {}) });
    if (result.kind === 'failed') return { ...result, via, wallResetAt: null };
    const { statusCode: status, headers } = result.response;
    if (status === 401 && !refreshedAfter401) {
      // An access token can die before its stated expiry; one refresh, shared by every request that saw it.
      refreshedAfter401 = true;
      const fresh = await claude.refreshAfterUnauthorized(current, prep.secret.accessToken);
      if (fresh.ok) {
        current = { ...current, secret: fresh.secret };
        drop(result.response);
        continue;
      }
    }
    const decision = await claude.afterResponse(current, prep.secret, { status, headers }, prep.sentSlow, wait.deadlineMs, via === 'limit-reset');
    if (decision.kind !== 'retry') {
      const wallResetAt = status === 429 ? claude.wallResetAt(headers) : null;
      return { ...result, via, wallResetAt };
    }
    drop(result.response);
    via = via === 'limit-reset' ? via : decision.via;
    if (decision.delayMs > 0) {
      if (wait.stream && decision.delayMs >= KEEPALIVE_AFTER_MS) wait.keepAlive.start(wait.keepAliveHeaders);
      await sleep(decision.delayMs, request.signal);
      if (request.signal.aborted) return { kind: 'failed', reason: 'aborted', via, wallResetAt: null };
    }
  }
  return { kind: 'failed', reason: 'unreachable', via, wallResetAt: null };
}
