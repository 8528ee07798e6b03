import { standingOf, type Pin, type PinScope } from './pin';

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
  const standing = standingOf(pin, ttlMs, now);
  if (standing.kind === 'disabled') return { kind: 'disabled' };
  const expiresAt = now + ttlMs;
  if (standing.kind === 'live') {
    const live = standing.pin;
    if (live.connectionId === servedConnectionId) {
      return { kind: 'extended', pin: { ...live, lastServedAt: now, expiresAt } };
    }
    return {
      kind: 'moved',
      from: live.connectionId,
      pin: { ...live, connectionId: servedConnectionId, createdAt: now, lastServedAt: now, expiresAt },
    };
  }
  const { keyId, session, target } = scope;
  return {
    kind: 'created',
    pin: { keyId, session, target, connectionId: servedConnectionId, createdAt: now, lastServedAt: now, expiresAt },
  };
}
