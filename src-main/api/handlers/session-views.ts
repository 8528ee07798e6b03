import type { SessionPinView } from '../../../src-shared/domain/affinity';
import type { LeaseView } from '../../../src-shared/domain/lease';
import { baseSessionOf } from '../../routing/affinity/agent-key';
import type { Pin } from '../../routing/affinity/pin';
import { standingOf } from '../../routing/affinity/pin';
import { holds, type Lease } from '../../routing/leases/lease-book';
import type { HandlerDeps } from './handler-deps';

/** How much of an owner's hash the dashboard shows: enough to tell two apart, useless to present. */
const OWNER_HASH_PREFIX = 8;

type Names = ReadonlyMap<string, string>;

const namesOf = (items: readonly { id: string; name: string }[]): Names => new Map(items.map((i) => [i.id, i.name]));

type Deps = Pick<HandlerDeps, 'affinity' | 'leases' | 'keys' | 'connections' | 'settings'>;

/** Live pins under the current TTL, newest first, with names instead of ids. */
export function pinViews(deps: Deps, now: number): SessionPinView[] {
  const ttl = deps.settings.get().sessionAffinityTtlMs;
  const keys = namesOf(deps.keys.list());
  const connections = namesOf(deps.connections.list());
  const live = deps.affinity.list().filter((pin: Pin) => standingOf(pin, ttl, now).kind === 'live');
  return live
    .sort((a, b) => b.lastServedAt - a.lastServedAt)
    .map((pin) => ({
      keyName: keys.get(pin.keyId) ?? pin.keyId,
      session: baseSessionOf(pin),
      agent: pin.agent ?? null,
      target: pin.target,
      connection: connections.get(pin.connectionId) ?? pin.connectionId,
      createdAt: pin.createdAt,
      lastServedAt: pin.lastServedAt,
      expiresAt: Math.min(pin.expiresAt, pin.lastServedAt + ttl),
    }));
}

/** Leases still holding at `now`, soonest expiry first; never the owner, only a short prefix of its hash. */
export function leaseViews(deps: Deps, now: number): LeaseView[] {
  const keys = namesOf(deps.keys.list());
  const connections = namesOf(deps.connections.list());
  const active = Object.values(deps.leases.book().active).filter((lease) => holds(lease, now));
  return active
    .sort((a, b) => a.expiresAt - b.expiresAt)
    .map((lease: Lease) => ({
      ownerHashPrefix: lease.ownerHash.slice(0, OWNER_HASH_PREFIX),
      keyName: keys.get(lease.keyId) ?? lease.keyId,
      connection: connections.get(lease.connectionId) ?? lease.connectionId,
      generation: lease.generation,
      state: lease.kind,
      acquiredAt: lease.acquiredAt,
      renewedAt: lease.renewedAt,
      expiresAt: lease.expiresAt,
      endedAt: lease.kind === 'ended' ? lease.endedAt : null,
      endReason: lease.kind === 'ended' ? lease.reason : null,
    }));
}

/** Pushes both lists after an action changed them, so every open dashboard shows it at once. */
export function emitSessionsChanged(deps: Deps & Pick<HandlerDeps, 'events'>, now: number): void {
  deps.events.emit('sessions.changed', { pins: pinViews(deps, now), leases: leaseViews(deps, now) });
}
