import type { HeldAction, HeldWait } from '../../../src-shared/domain/held';
import type { RequestFrame } from '../stages/frame';
import type { HoldInput } from './held-board';

/**
 * What the board lists for a request held at a stage. `cancel` is always offered; `go-now` where
 * the stage can skip its wait; `release-lease` only where the request has a tie to release and
 * releasing it can end the wait (a cooldown hold on a pinned or leased session; a queue wait is
 * for a slot, which no lease changes).
 */
export function holdInputOf(
  frame: RequestFrame,
  waitsFor: HeldWait,
  what: string,
  until: number | null,
  offers: { goNow: boolean; release: boolean },
): HoldInput {
  const actions: HeldAction[] = ['cancel'];
  if (offers.goNow) actions.push('go-now');
  if (offers.release && (frame.claim !== null || frame.session !== null)) actions.push('release-lease');
  return {
    keyName: frame.request.key.name,
    model: frame.parsed.model,
    session: frame.session,
    stream: frame.parsed.stream,
    waitsFor,
    what,
    until,
    actions,
  };
}
