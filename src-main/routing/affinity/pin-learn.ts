import { standingKindOf, type Pin, type PinScope } from './pin';

/** What serving a request does to its session's pin; the store writes `pin` unless `kind` is `disabled`. */
export type PinChange =
  | { kind: 'disabled' }
  | { kind: 'created'; pin: Pin }
  | { kind: 'extended'; pin: Pin }
  | { kind: 'moved'; from: string; pin: Pin };

/**
 * A connection served the request (learn stage). Same connection as a live pin: extend it (AFF-8).
 * Another one: move the pin there, so the session keeps its new account and the prompt cache
 * follows (AFF-6). No live pin: create one. Call only for a request that carried a session key.
 */
export function learnServed(
  pin: Pin | undefined,
  scope: PinScope,
  servedConnectionId: string,
  ttlMs: number,
  now: number,
): PinChange {
  const standing = standingKindOf(pin, ttlMs, now);
  if (standing === 'disabled') return { kind: 'disabled' };
  const expiresAt = now + ttlMs;
  if (standing === 'live' && pin) {
    // Field by field, not a spread: this runs once per served request of every session.
    const { keyId, session, target } = pin;
    if (pin.connectionId === servedConnectionId) {
      const createdAt = pin.createdAt;
      return {
        kind: 'extended',
        pin: withAgent(
          { keyId, session, target, connectionId: servedConnectionId, createdAt, lastServedAt: now, expiresAt },
          pin.agent,
        ),
      };
    }
    return {
      kind: 'moved',
      from: pin.connectionId,
      pin: withAgent(
        { keyId, session, target, connectionId: servedConnectionId, createdAt: now, lastServedAt: now, expiresAt },
        pin.agent,
      ),
    };
  }
  const { keyId, session, target } = scope;
  return {
    kind: 'created',
    pin: withAgent(
      { keyId, session, target, connectionId: servedConnectionId, createdAt: now, lastServedAt: now, expiresAt },
      scope.agent,
    ),
  };
}

/** A subagent's own pin keeps its agent (issue 23 §3); a session's pin has none, not an undefined one. */
function withAgent(pin: Pin, agent: string | undefined): Pin {
  if (agent !== undefined) pin.agent = agent;
  return pin;
}
