import { pinKeyOf, type Pin } from '../routing/affinity/pin';
import type { AffinityRepo, PinEvent } from '../routing/affinity/pin-store';
import { judgePinFact, parsePinFact, pinFactName, tombstoneOf, type PinFact } from './pin-merge';

/**
 * Session pins shared with the team (issue 24 §4): a session pinned through one instance is served
 * on the same connection by the next (one warm prompt cache for the team). A pin is extended on
 * every request, so an unchanged pin is re-sent at most every `RESEND_MS`; a new or moved pin and
 * a clear go at once. The other instances therefore see an expiry at most that much early.
 */
export const PIN_RESEND_MS = 15_000;

export interface PinShareDeps {
  /** Sends a fact to the team (team-share's write-through; silent while absorbing). */
  share(name: string, json: string, at: number): void;
  keyIdOf(name: string): string | null;
  keyNameOf(id: string): string | null;
  idOf(connectionName: string): string | null;
  nameOf(connectionId: string): string | null;
  now(): number;
}

export interface PinShare {
  /** The pin store's watcher. */
  heard(event: PinEvent): void;
  /** A fact from the team, applied to the store (the caller keeps it from echoing). */
  absorb(json: string, pins: AffinityRepo): void;
}

export function createPinShare(deps: PinShareDeps): PinShare {
  // Per local pin key: the connection and serve time last sent, to skip resending a mere extension.
  const sent = new Map<string, { connectionId: string; lastServedAt: number }>();
  const tombstones = new Map<string, { clearedAt: number; expiresAt: number }>();
  let swept = 0;
  // The store tells its watcher about absorbed changes too: those are the team's, not news.
  let absorbing = false;

  const factOf = (pin: Pin): PinFact | null => {
    const key = deps.keyNameOf(pin.keyId);
    const connection = deps.nameOf(pin.connectionId);
    if (key === null || connection === null) return null;
    const { session, target, createdAt, lastServedAt, expiresAt } = pin;
    const fact: PinFact = { key, session, target, connection, createdAt, lastServedAt, expiresAt };
    if (pin.agent !== undefined) fact.agent = pin.agent;
    return fact;
  };

  const send = (fact: PinFact, at: number): void => deps.share(pinFactName(fact), JSON.stringify(fact), at);

  /** Forgets what can no longer matter: tombstones and send marks past their expiry. */
  const sweep = (now: number): void => {
    if (now - swept < 60_000) return;
    swept = now;
    for (const [name, t] of tombstones) if (t.expiresAt <= now) tombstones.delete(name);
    for (const [key, s] of sent) if (now - s.lastServedAt > 4 * 3_600_000) sent.delete(key);
  };

  const put = (pin: Pin, key: string): void => {
    const last = sent.get(key);
    if (last?.connectionId === pin.connectionId && pin.lastServedAt - last.lastServedAt < PIN_RESEND_MS) return;
    const fact = factOf(pin);
    if (fact === null) return;
    sent.set(key, { connectionId: pin.connectionId, lastServedAt: pin.lastServedAt });
    send(fact, pin.lastServedAt);
    sweep(pin.lastServedAt);
  };

  const cleared = (pin: Pin, key: string): void => {
    sent.delete(key);
    const fact = factOf(pin);
    if (fact === null) return;
    const now = deps.now();
    const tomb = tombstoneOf(fact, now);
    tombstones.set(pinFactName(fact), { clearedAt: now, expiresAt: tomb.expiresAt });
    send(tomb, now);
  };

  const apply = (change: () => unknown): void => {
    absorbing = true;
    try {
      change();
    } finally {
      absorbing = false;
    }
  };

  return {
    heard: (event) => {
      if (absorbing) return;
      if (event.kind === 'put') put(event.pin, event.key);
      else cleared(event.pin, event.key);
    },
    absorb(json, pins) {
      const fact = parsePinFact(json);
      const keyId = fact === null ? null : deps.keyIdOf(fact.key);
      if (fact === null || keyId === null) return;
      const now = deps.now();
      sweep(now);
      const name = pinFactName(fact);
      const localKey = pinKeyOf({ keyId, session: fact.session, target: fact.target });
      const verdict = judgePinFact(fact, pins.get(localKey), tombstones.get(name), now);
      if (fact.clearedAt !== undefined) {
        const known = tombstones.get(name);
        if (!known || known.clearedAt < fact.clearedAt)
          tombstones.set(name, { clearedAt: fact.clearedAt, expiresAt: fact.expiresAt });
      }
      if (verdict === 'clear') apply(() => pins.clear({ key: localKey }));
      if (verdict !== 'put') return;
      const connectionId = deps.idOf(fact.connection);
      if (connectionId === null) return;
      const { session, target, createdAt, lastServedAt, expiresAt } = fact;
      const pin: Pin = { keyId, session, target, connectionId, createdAt, lastServedAt, expiresAt };
      if (fact.agent !== undefined) pin.agent = fact.agent;
      // Counts as sent: this instance need not repeat what the team just told it.
      sent.set(localKey, { connectionId, lastServedAt });
      apply(() => pins.put(pin, localKey));
    },
  };
}
