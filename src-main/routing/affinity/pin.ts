/** What a pin is scoped to (AFF-7): the local key, the session and the requested model, combo or route. */
export interface PinScope {
  keyId: string;
  session: string;
  target: string;
  /**
   * Issue 23 §3: set for a subagent's own pin (its route spreads subagents); `session` is then
   * `session/agent`, so the pin key differs from the session's while the session stays readable.
   */
  agent?: string;
}

/** A session pinned to a connection (by id) until `expiresAt`. */
export interface Pin extends PinScope {
  connectionId: string;
  createdAt: number;
  lastServedAt: number;
  expiresAt: number;
}

/** How a stored pin stands at `now` under the current TTL. */
export type PinStanding =
  { kind: 'none' } | { kind: 'disabled' } | { kind: 'expired'; pin: Pin } | { kind: 'live'; pin: Pin };

/** Map key of a scope; NUL cannot occur in a key id, a session value or a model name. */
export function pinKeyOf(scope: PinScope): string {
  return `${scope.keyId}\u0000${scope.session}\u0000${scope.target}`;
}

/**
 * A pin is live until its stored expiry, and never longer than `ttlMs` after it last served, so a
 * lowered TTL applies to existing pins at once; `ttlMs <= 0` disables affinity (AFF-3). No provider
 * enters this: the TTL is the same for all (the reference's regression #7274).
 */
export function standingOf(pin: Pin | undefined, ttlMs: number, now: number): PinStanding {
  const kind = standingKindOf(pin, ttlMs, now);
  if (kind === 'disabled') return DISABLED;
  if (!pin || kind === 'none') return NONE;
  return { kind, pin };
}

const DISABLED: PinStanding = { kind: 'disabled' };
const NONE: PinStanding = { kind: 'none' };

/** `standingOf`'s kind alone, allocating nothing: what the per-request plan and learn stages need. */
export function standingKindOf(pin: Pin | undefined, ttlMs: number, now: number): PinStanding['kind'] {
  if (ttlMs <= 0) return 'disabled';
  if (!pin) return 'none';
  return now < Math.min(pin.expiresAt, pin.lastServedAt + ttlMs) ? 'live' : 'expired';
}

/** Keys of pins past their stored expiry, for the store to delete (AFF pruning). */
export function expiredPinKeys(pins: ReadonlyMap<string, Pin>, now: number): string[] {
  const keys: string[] = [];
  for (const [key, pin] of pins) if (pin.expiresAt <= now) keys.push(key);
  return keys;
}
