import type { TargetExclusion } from '../../../src-shared/domain/cooldown';
import { waitCandidatesOf } from '../../resilience/cooldown-wait/wait-causes';
import { decideCooldownWait, type WaitCandidate } from '../../resilience/cooldown-wait/wait-decision';
import { quoteUserText } from '../accept/quote-user-text';
import { clockOf, type EarliestReset } from './reset-words';
import type { ProxyContext } from '../proxy-context';
import type { RequestFrame } from './frame';
import type { RequestTrail } from './trail';
import type { HeldAction } from '../../../src-shared/domain/held';
import { holdInputOf } from '../held/hold-input';
import { waitHeld } from '../held/hold-wait';
import { releaseSessionTies } from '../held/release-session';

/** Response headers of a held request: why it was held and for how long in all (CONC-7). */
export const HELD_HEADER = 'x-leeway-held';
export const HELD_MS_HEADER = 'x-leeway-held-ms';

/**
 * `give-up` carries when the first target serves again (null when nothing ends by time) and
 * whether that is further off than anyone would wait, so the answer can say it (issue 21 §11).
 */
export type HoldResult =
  | { kind: 'retry' }
  | { kind: 'aborted' }
  | { kind: 'give-up'; reset: { earliest: EarliestReset; tooLong: boolean } | null };

const GIVE_UP_SILENTLY: HoldResult = { kind: 'give-up', reset: null };
const RETRY: HoldResult = { kind: 'retry' };
const ABORTED: HoldResult = { kind: 'aborted' };

/** The first exclusion to end by time, after now. */
function earliestOf(candidates: readonly WaitCandidate[], now: number): EarliestReset | null {
  let earliest: EarliestReset | null = null;
  for (const c of candidates) {
    if (c.until === null || !Number.isFinite(c.until) || c.until <= now) continue;
    if (earliest === null || c.until < earliest.until) earliest = { connection: c.connection, until: c.until };
  }
  return earliest;
}

/** Resolves after `ms`, or at once when the signal aborts; the timer never outlives the request. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
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
  trail: RequestTrail,
  excluded: () => readonly TargetExclusion[] | null,
): Promise<HoldResult> {
  // Issue 24 §2: after "use any connection now" nothing is waited for again.
  if (trail.goNow) return GIVE_UP_SILENTLY;
  const settings = ctx.engines.cooldownWait.settings();
  const held = trail.held ?? { waits: 0, heldMs: 0, streamOpened: false };
  // Read on a refusal's path only: what is cooling, and when the first of it serves again.
  const list = excluded();
  if (list === null) return GIVE_UP_SILENTLY;
  const now = ctx.now();
  const candidates = waitCandidatesOf(list, ctx.engines.cooldownWait.snapshot(now));
  const decision = decideCooldownWait(candidates, held, settings, now);
  if (decision.kind === 'give-up') {
    const earliest = earliestOf(candidates, now);
    return { kind: 'give-up', reset: earliest && { earliest, tooLong: earliest.until - now > settings.maxWaitMs } };
  }

  // A hold is never silent: the log says it, and a stream says what it waits for and until when.
  const what = `${decision.connection}'s cooldown to end at ${clockOf(decision.until, now)}`;
  ctx.host.log(
    `[proxy] holding a request for ${quoteUserText(frame.parsed.model)}: waiting for ${what} (${Math.ceil(decision.ms / 1000)} s, wait ${held.waits + 1} of at most ${settings.maxAttempts})`,
  );
  const { res } = frame.request;
  if (frame.parsed.stream && !frame.keepAlive.committed) {
    frame.keepAlive.start({ [HELD_HEADER]: 'cooldown' }, what);
    held.streamOpened = true;
  } else if (frame.keepAlive.committed) {
    frame.keepAlive.start({}, what);
  }
  const waited = await waitHeld(
    ctx.host.inFlight.held,
    frame.signal,
    holdInputOf(frame, 'cooldown', what, decision.until, { goNow: true, release: true }),
    now,
    (signal) => sleep(decision.ms, signal),
  );
  if (waited.kind === 'acted') actOn(ctx, frame, trail, waited.action, what);
  held.waits += 1;
  held.heldMs += Math.max(0, ctx.now() - now);
  trail.held = held;
  if (frame.signal.aborted) return ABORTED;
  const ms = String(Math.round(held.heldMs));
  if (!res.headersSent) {
    res.setHeader(HELD_HEADER, 'cooldown');
    res.setHeader(HELD_MS_HEADER, ms);
  } else {
    // An opened stream cannot take headers any more: the total goes in a comment, and in the activity row.
    frame.keepAlive.note(`leeway held ${ms} ms (cooldown)`);
  }
  return RETRY;
}

/** The operator cut the wait short: the next pass goes at once, anywhere (go-now) or untied (release-lease). */
function actOn(
  ctx: ProxyContext,
  frame: RequestFrame,
  trail: RequestTrail,
  action: Exclude<HeldAction, 'cancel'>,
  what: string,
): void {
  if (action === 'go-now') trail.goNow = true;
  else releaseSessionTies(ctx, frame);
  ctx.host.log(
    `[proxy] a held request for ${quoteUserText(frame.parsed.model)} stopped waiting for ${what}: ${action} from the dashboard`,
  );
}
