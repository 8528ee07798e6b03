import type { SessionPinView } from '../../../src-shared/domain/affinity';

/** One session of one key: its own pins (one per model or route), then its subagents' own pins. */
export interface PinGroup {
  keyName: string;
  session: string;
  /** The session's pins, shared by its main agent and every subagent of a `share` route. */
  own: SessionPinView[];
  /** Pins of subagents whose route spreads them (issue 23 §3), by agent id. */
  agents: SessionPinView[];
}

/**
 * The Sessions tab's grouping (issue 23 §3): by key and session, then agent. Groups keep the order
 * of their newest pin (the list comes newest first); inside a group, subagents by agent id.
 */
export function groupPins(pins: readonly SessionPinView[]): PinGroup[] {
  const groups = new Map<string, PinGroup>();
  for (const pin of pins) {
    const id = `${pin.keyName}\u0000${pin.session}`;
    let group = groups.get(id);
    if (!group) {
      group = { keyName: pin.keyName, session: pin.session, own: [], agents: [] };
      groups.set(id, group);
    }
    (pin.agent ? group.agents : group.own).push(pin);
  }
  for (const group of groups.values()) group.agents.sort((a, b) => (a.agent ?? '').localeCompare(b.agent ?? ''));
  return [...groups.values()];
}
