import type { Dispatcher } from 'undici';
import type { AttemptHooks } from '../../providers/provider-hooks';
import type { UpstreamPools } from '../../providers/upstream-pools';
import { dispatchToTarget, type DispatchRequest, type DispatchResult } from './dispatch';
import type { KeepAlive } from '../relay/sse-keepalive';
import type { RequestSignal } from '../../kernel/request-signal';
import type { HeldBoard, HoldInput } from '../held/held-board';
import { waitHeld } from '../held/hold-wait';

/** One candidate's send as the attempt stage sees it, with what the provider hooks did on the way. */
export type SendResult = DispatchResult & {
  /** `low-priority-accepted`, `limit-reset`, `slot-busy` … when the answer came after a hook's re-send (absent: none). */
  via?: string | null;
  /** The announced end of a usage wall nobody handled: the connection cools until then (not a guess). */
  wallResetAt?: number | null;
  /** Why a `credential` failure happened: a dead login (recorded as needs_reauth) or a refresh that failed for now. */
  credentialReason?: 'needs_reauth' | 'refresh_failed';
};

/** Waits that long or longer make a streaming client see keep-alive comments instead of silence. */
const KEEPALIVE_AFTER_MS = 5_000;
/** A bound on same-connection re-sends; the lane's own max-wait ends far earlier in practice. */
const MAX_ROUNDS = 200;

/** Resolves after `ms`, or at once when either signal aborts (the hold's, or the attempt's own backstop). */
function sleep(ms: number, signal: AbortSignal, also: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted || also.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      also.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
    also.addEventListener('abort', done, { once: true });
  });
}

function drop(response: Dispatcher.ResponseData): void {
  response.body.on('error', () => undefined);
  response.body.resume();
}

/**
 * Sends a request to one candidate. Without hooks: one dispatch. With them: `prepare` before each
 * send, `afterResponse` after each response's headers, and the same request again on the same
 * connection while a hook asks for it — all before anything reaches the client.
 */
export function sendWithHooks(
  pools: UpstreamPools,
  hooks: AttemptHooks | null,
  request: DispatchRequest,
  /** How a hook's wait is shown to a streaming client; only needed (and only built) with hooks. */
  wait: Wait | null,
): Promise<SendResult> {
  // The common case (no provider hooks) is one dispatch's own promise: no frame, no `.then` around it.
  if (!hooks || !wait) return dispatchToTarget(pools, request);
  return sendWithRounds(pools, hooks, request, wait);
}

interface Wait {
  stream: boolean;
  keepAlive: KeepAlive;
  keepAliveHeaders: Record<string, string>;
  /** Issue 24 §2: a hook's wait is listed on the held board (cancel only: the lane decides its own pace). */
  held: { board: HeldBoard; request: RequestSignal; input(what: string, until: number): HoldInput; now(): number };
}

/**
 * The result with the send's own fields added. Not `{ ...result, via, wallResetAt }`: on Node 20's
 * V8 a spread followed by properties the source lacks takes ~1.5 µs per added property (the clone's
 * map transitions are not cached) and leaves a fresh hidden class behind for the GC on every request.
 */
function withSend(result: DispatchResult, via: string | null, wallResetAt: number | null): SendResult {
  return Object.assign(result, { via, wallResetAt });
}

async function sendWithRounds(
  pools: UpstreamPools,
  hooks: AttemptHooks,
  request: DispatchRequest,
  wait: Wait,
): Promise<SendResult> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const prep = await hooks.prepare();
    if (!prep.ok) {
      return {
        kind: 'failed',
        reason: 'credential',
        message: prep.message,
        via: hooks.via,
        wallResetAt: null,
        credentialReason: prep.credentialReason,
      };
    }
    const extraHeaders = prep.headers ? { ...request.extraHeaders, ...prep.headers } : request.extraHeaders;
    // Object.assign, not a spread plus new keys (see withSend).
    const result = await dispatchToTarget(
      pools,
      Object.assign({}, request, { secretOverride: prep.secret }, extraHeaders ? { extraHeaders } : {}),
    );
    if (result.kind === 'failed') return withSend(result, hooks.via, null);
    const decision = await hooks.afterResponse({
      status: result.response.statusCode,
      headers: result.response.headers,
    });
    if (decision.kind === 'accept') return withSend(result, hooks.via, decision.wallResetAt);
    drop(result.response);
    if (decision.delayMs > 0) {
      if (wait.stream && decision.delayMs >= KEEPALIVE_AFTER_MS) wait.keepAlive.start(wait.keepAliveHeaders);
      const { held } = wait;
      const now = held.now();
      const what = `${request.target.connection.view.name}'s ${hooks.via ?? 'provider'} wait`;
      await waitHeld(held.board, held.request, held.input(what, now + decision.delayMs), now, (signal) =>
        sleep(decision.delayMs, signal, request.signal),
      );
      if (request.signal.aborted) return { kind: 'failed', reason: 'aborted', via: hooks.via, wallResetAt: null };
    }
  }
  return { kind: 'failed', reason: 'unreachable', via: hooks.via, wallResetAt: null };
}
