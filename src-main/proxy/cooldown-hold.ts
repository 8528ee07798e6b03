import type { TargetExclusion } from '../../src-shared/domain/cooldown';
import { waitCandidatesOf } from '../resilience/cooldown-wait/wait-causes';
import { decideCooldownWait } from '../resilience/cooldown-wait/wait-decision';
import type { ProxyContext } from './proxy-context';
import type { RequestFrame } from './stages/frame';

/** Response headers of a held request: why it was held and for how long in all (CONC-7). */
export const HELD_HEADER = 'x-leeway-held';
export const HELD_MS_HEADER = 'x-leeway-held-ms';

export type HoldResult = 'retry' | 'give-up' | 'aborted';

/** Resolves after `ms`, or at once when the signal aborts; the timer never outlives the request. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * CONC-7..9 around the stages: the request would end with a refusal only because targets are
 * cooling; decide (pure engine) whether to wait for the earliest one, and wait — a streaming
 * client gets 200 + SSE keep-alives first, so it does not give up meanwhile. `excluded` is read
 * lazily: when waiting is off, nothing else is computed.
 */
export async function holdForCooldown(
  ctx: ProxyContext,
  frame: RequestFrame,
  excluded: () => readonly TargetExclusion[] | null,
): Promise<HoldResult> {
  const settings = ctx.cooldownWait.settings();
  const held = frame.held ?? { waits: 0, heldMs: 0, streamOpened: false };
  if (!settings.enabled || held.waits >= settings.maxAttempts) return 'give-up';
  const list = excluded();
  if (list === null) return 'give-up';
  const now = ctx.now();
  const decision = decideCooldownWait(waitCandidatesOf(list, ctx.cooldownWait.snapshot(now)), held, settings, now);
  if (decision.kind === 'give-up') return 'give-up';

  const { res } = frame.request;
  if (frame.parsed.stream && !frame.keepAlive.committed) {
    frame.keepAlive.start({ [HELD_HEADER]: 'cooldown' }, `${decision.connection}'s cooldown to end`);
    held.streamOpened = true;
  } else if (frame.keepAlive.committed) {
    frame.keepAlive.note(`leeway keep-alive (waiting for ${decision.connection}'s cooldown to end)`);
  }
  await sleep(decision.ms, frame.signal);
  held.waits += 1;
  held.heldMs += Math.max(0, ctx.now() - now);
  frame.held = held;
  if (frame.signal.aborted) return 'aborted';
  const ms = String(Math.round(held.heldMs));
  if (!res.headersSent) {
    res.setHeader(HELD_HEADER, 'cooldown');
    res.setHeader(HELD_MS_HEADER, ms);
  } else {
    // An opened stream cannot take headers any more: the total goes in a comment, and in the activity row.
    frame.keepAlive.note(`leeway held ${ms} ms (cooldown)`);
  }
  return 'retry';
}
