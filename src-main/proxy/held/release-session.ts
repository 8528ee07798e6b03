import { pinKeyOf } from '../../routing/affinity/pin';
import { releaseLease } from '../../routing/leases/lease-lifecycle';
import type { ProxyContext } from '../proxy-context';
import type { RequestFrame } from '../stages/frame';

/**
 * Issue 24 §2, "release the lease": a held request's session lets go of where it is tied — the
 * exclusive lease it presented (ended as the client's cancel) and its session pins — so the next
 * pass may go to any free connection. Returns how many ties went (0: it had none).
 */
export function releaseSessionTies(ctx: Pick<ProxyContext, 'sessions' | 'now'>, frame: RequestFrame): number {
  let released = 0;
  if (frame.claim) {
    const step = releaseLease(ctx.sessions.leases.book(), frame.claim, 'client_cancelled', ctx.now());
    if (step.decision.kind === 'released' && !step.decision.already && ctx.sessions.leases.commit(step.book).ok)
      released++;
  }
  if (frame.session !== null) {
    const keyId = frame.request.key.id;
    for (const pin of ctx.sessions.affinity.list()) {
      if (pin.keyId === keyId && pin.session === frame.session)
        released += ctx.sessions.affinity.clear({ key: pinKeyOf(pin) });
    }
  }
  return released;
}
