import type { Pin } from '../routing/affinity/pin';

/**
 * A session pin as the team sees it (issue 24 §4): ids differ per data dir, so it travels by the
 * local key's NAME and the connection's NAME, with the session and the requested model/route. A
 * pin cleared on the dashboard travels as a tombstone (`clearedAt`), kept until the cleared pin
 * could have expired, so a stale fact still in flight cannot bring it back.
 */
export interface PinFact {
  key: string;
  session: string;
  target: string;
  agent?: string;
  connection: string;
  createdAt: number;
  lastServedAt: number;
  expiresAt: number;
  clearedAt?: number;
}

/** What absorbing a fact does to the local pin of its scope. */
export type PinVerdict = 'put' | 'clear' | 'ignore';

/**
 * The merge: the later instant wins (a pin's lastServedAt, a tombstone's clearedAt); on a tie the
 * local state stays. An expired pin fact is ignored; a pin older than a known tombstone too.
 */
export function judgePinFact(
  fact: PinFact,
  local: Pin | undefined,
  tombstone: { clearedAt: number } | undefined,
  now: number,
): PinVerdict {
  if (fact.clearedAt !== undefined) {
    return local !== undefined && local.lastServedAt <= fact.clearedAt ? 'clear' : 'ignore';
  }
  if (fact.expiresAt <= now) return 'ignore';
  if (tombstone !== undefined && tombstone.clearedAt >= fact.lastServedAt) return 'ignore';
  if (local !== undefined && local.lastServedAt >= fact.lastServedAt) return 'ignore';
  return 'put';
}

/** The hash field of a pin fact: its scope by names (JSON, so no separator can collide). */
export function pinFactName(fact: Pick<PinFact, 'key' | 'session' | 'target'>): string {
  return JSON.stringify([fact.key, fact.session, fact.target]);
}

/** The tombstone of a pin cleared at `now`: it lasts as long as the pin's own TTL from now. */
export function tombstoneOf(fact: PinFact, now: number): PinFact {
  const ttl = Math.max(0, fact.expiresAt - fact.lastServedAt);
  return { ...fact, clearedAt: now, expiresAt: now + ttl };
}

/** A fact no merge can use any more (expired, tombstones included, or unreadable): the sweep deletes it. */
export function pinFactStale(json: string, now: number): boolean {
  const fact = parsePinFact(json);
  return fact === null || fact.expiresAt <= now;
}

export function parsePinFact(json: string): PinFact | null {
  try {
    const v: unknown = JSON.parse(json);
    if (typeof v !== 'object' || v === null) return null;
    const f = v as Partial<PinFact>;
    const texts = [f.key, f.session, f.target, f.connection];
    const numbers = [f.createdAt, f.lastServedAt, f.expiresAt];
    if (!texts.every((t) => typeof t === 'string') || !numbers.every((n) => typeof n === 'number')) return null;
    if (f.agent !== undefined && typeof f.agent !== 'string') return null;
    if (f.clearedAt !== undefined && typeof f.clearedAt !== 'number') return null;
    return f as PinFact;
  } catch {
    return null;
  }
}
