import { randomUUID } from 'node:crypto';
import { bucketIndexOf } from '../engine/sliding-window';
import type { DimensionRef, LocalQuotaStore } from '../quota-ports';
import type { RedisQuotaStore, ReplayEntry } from './redis-store';

/**
 * What this instance consumed on SQLite while Redis was configured but unusable (issue 24 §4), per
 * (key, dimension, bucket), so it can be added to Redis exactly once when Redis answers again.
 *
 * Why it exists: before it, the outage's counts stayed in SQLite (lost for the team) and SQLite did not
 * know what Redis had counted (the outage started from stale local values, so a pool served 900 of
 * 600/hour). Now SQLite mirrors Redis while it is up (`LocalQuotaStore.mirror`) and the journal holds
 * only the deltas. Each replay carries a fresh id that Redis applies once, plus this instance's own
 * bucket total as a floor (a Redis restarted empty is raised back to at least what we saw).
 * Kept in memory: a crash during an outage loses that outage's deltas for the team (SQLite keeps them).
 */
export interface OutageJournal {
  /** With `opId` (a consume whose Redis outcome is unknown) the delta is kept apart and replayed under that id. */
  record(keyId: string, dim: DimensionRef, amount: number, now: number, opId?: string): void;
  /** A fresh id for one Redis consume (see `RedisQuotaStore.consumeRaw`). */
  nextId(): string;
  size(): number;
  /** Replays every delta to Redis; resolves true once the journal is empty, false when a replay failed. */
  drain(redis: RedisQuotaStore, local: LocalQuotaStore, now: number): Promise<boolean>;
  /** Forgets one key's deltas, or all (a pool's "reset usage"). */
  clear(keyId?: string): void;
}

interface Delta {
  keyId: string;
  dim: DimensionRef;
  index: number;
  delta: number;
  /** Set for an uncertain consume: replayed under this id, which the consume itself marks if it ran. */
  opId?: string;
  /** The replay in flight or unanswered, resent unchanged until Redis acknowledges it. */
  sending?: ReplayEntry | undefined;
}

export function createOutageJournal(): OutageJournal {
  const deltas = new Map<string, Delta>();
  const instance = randomUUID();
  let seq = 0;

  /**
   * What Redis must hold at least once `d` is applied: this instance's bucket total less the deltas
   * of the same bucket still waiting to be replayed after it. Without that subtraction a Redis
   * restarted empty was raised to the whole total by the first of several uncertain consumes (each
   * kept apart under its own id), and every later one added its delta again: 10 consumes of 1 on a
   * mirrored 5 gave 24 instead of 15 (a clean-clone CI run caught it).
   */
  const floorOf = (local: LocalQuotaStore, d: Delta): number => {
    const out = { prev: new Float64Array(1), curr: new Float64Array(1) };
    // Reading at the bucket's own start gives its value as `curr` (or 0 once it rolled out of the pair).
    local.sync().readManyInto([d.keyId], [d.dim], d.index * d.dim.windowMs, out);
    let pending = 0;
    for (const e of deltas.values())
      if (e !== d && e.index === d.index && e.keyId === d.keyId && e.dim.key === d.dim.key)
        pending += e.delta + (e.sending?.delta ?? 0);
    return Math.max(0, (out.curr[0] ?? 0) - pending);
  };

  return {
    record(keyId, dim, amount, now, opId) {
      const index = bucketIndexOf(now, dim.windowMs);
      if (opId !== undefined) return void deltas.set(opId, { keyId, dim, index, delta: amount, opId });
      const id = `${keyId}\u0000${dim.key}\u0000${index}`;
      const known = deltas.get(id);
      if (known) known.delta += amount;
      else deltas.set(id, { keyId, dim, index, delta: amount });
    },
    nextId: () => `${instance}:${(seq += 1)}`,
    size: () => deltas.size,
    async drain(redis, local, now) {
      for (const [id, d] of [...deltas]) {
        // Two or more windows back no read can see the bucket any more: nothing to give back.
        if (d.index < bucketIndexOf(now, d.dim.windowMs) - 1) {
          deltas.delete(id);
          continue;
        }
        // A replay whose answer was lost is sent again as it was (same id, delta, floor): applied once.
        if (!d.sending) {
          d.sending = { ...d, id: d.opId ?? `${instance}:${(seq += 1)}`, floor: floorOf(local, d) };
          d.delta = 0;
        }
        try {
          await redis.replay(d.sending);
        } catch {
          return false;
        }
        d.sending = undefined;
        // Consumes made while the replay was in flight wait for the next round.
        if (d.delta <= 0) deltas.delete(id);
      }
      return deltas.size === 0;
    },
    clear(keyId) {
      for (const [id, d] of deltas) if (keyId === undefined || d.keyId === keyId) deltas.delete(id);
    },
  };
}
