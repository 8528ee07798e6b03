import type { ResilienceRuntime } from '../resilience/resilience-runtime';
import {
  clearFact,
  connectionOfFact,
  diffLockouts,
  lockoutFact,
  mergeClear,
  mergeLockout,
  readClearFact,
  readLockoutFact,
} from './lockout-facts';

export const LOCKOUT = 'lockout';

/** How many clear instants are remembered; the oldest go first (a clear matters while stale copies fly). */
const CLEARS_KEPT = 2_000;

export type LockoutEngine = Pick<ResilienceRuntime, 'absorbLockouts' | 'onLockoutsChanged'>;

export interface LockoutShareDeps {
  nameOf(connectionId: string): string | null;
  idOf(name: string): string | null;
  /** Writes a fact through (the team share decides whether it is published or only remembered). */
  share(kind: string, name: string, json: string, at: number): void;
  now(): number;
}

/**
 * Model lockouts on the team bus (issue 24 §4): every change of this instance's lockouts goes out
 * (a lock set or extended as the entry, a lock gone as a clear); facts from the team merge in
 * (`lockout-facts.ts`). Expired locks are ignored, and a lock not newer than a clear known here
 * stays out, so a late or replayed copy never resurrects what an operator or a success cleared.
 */
export function createLockoutShare(deps: LockoutShareDeps) {
  const cleared = new Map<string, number>();
  // While a remote clear is folded in, the clear this instance writes back keeps the remote instant.
  let absorbedClearAt: number | null = null;

  const remember = (name: string, at: number): void => {
    const known = cleared.get(name) ?? -Infinity;
    cleared.delete(name);
    cleared.set(name, Math.max(known, at));
    if (cleared.size > CLEARS_KEPT) cleared.delete(cleared.keys().next().value ?? '');
  };

  return {
    watch(engine: LockoutEngine): void {
      engine.onLockoutsChanged((before, after, now) => {
        const { set, gone } = diffLockouts(before, after);
        for (const entry of set) {
          const name = deps.nameOf(entry.connectionId);
          const fact = name === null ? null : lockoutFact(entry, name);
          if (fact) deps.share(LOCKOUT, fact.name, fact.json, now);
        }
        for (const entry of gone) {
          const name = deps.nameOf(entry.connectionId);
          if (name === null) continue;
          const fact = clearFact(entry, name, absorbedClearAt ?? now);
          remember(fact.name, absorbedClearAt ?? now);
          deps.share(LOCKOUT, fact.name, fact.json, now);
        }
      });
    },

    absorb(engine: LockoutEngine, factName: string, json: string): void {
      const id = deps.idOf(connectionOfFact(factName));
      if (id === null) return;
      const clear = readClearFact(json);
      if (clear !== null) {
        remember(factName, clear.clearedAt);
        absorbedClearAt = clear.clearedAt;
        try {
          engine.absorbLockouts((local) => mergeClear(local, clear, id));
        } finally {
          absorbedClearAt = null;
        }
        return;
      }
      const entry = readLockoutFact(json, id);
      if (entry === null || entry.until <= deps.now()) return;
      if ((cleared.get(factName) ?? -Infinity) >= entry.lastFailureAt) return;
      engine.absorbLockouts((local) => mergeLockout(local, entry));
    },
  };
}

export type LockoutShare = ReturnType<typeof createLockoutShare>;
