import type { LimitResetMemo } from './reset-memo';
import type { LimitResetResult } from './reset-outcome';

/** Token-keyed entries rotate on refresh, so the memo is FIFO-bounded like the lane state (reference §7.1). */
const DEFAULT_MAX_KEYS = 10_000;

/** Per-key memos plus the in-flight attempts that make concurrent walls share one claim. */
export interface LimitResetStore {
  readMemo(key: string): LimitResetMemo | undefined;
  writeMemo(key: string, memo: LimitResetMemo): void;
  /** The attempt already running for `key`, if any. */
  pending(key: string): Promise<LimitResetResult> | undefined;
  /** Registers `attempt` as the one in flight for `key` until it settles; returns it. */
  track(key: string, attempt: Promise<LimitResetResult>): Promise<LimitResetResult>;
  /** Memos for snapshots (ARCHITECTURE §3: in-memory state is still shown). */
  snapshot(): Array<{ key: string; memo: LimitResetMemo }>;
  forget(key: string): void;
}

/** An in-memory store; nothing persists, so a restart simply asks the status endpoint again. */
export function createLimitResetStore(options: { maxKeys?: number } = {}): LimitResetStore {
  const maxKeys = Math.max(1, options.maxKeys ?? DEFAULT_MAX_KEYS);
  const memos = new Map<string, LimitResetMemo>();
  // The one piece of mutable I/O state: promises, kept apart from the plain memo data.
  const inFlight = new Map<string, Promise<LimitResetResult>>();

  return {
    readMemo: (key) => memos.get(key),
    writeMemo(key, memo) {
      memos.delete(key);
      memos.set(key, memo);
      for (const oldest of memos.keys()) {
        if (memos.size <= maxKeys) break;
        memos.delete(oldest);
      }
    },
    pending: (key) => inFlight.get(key),
    track(key, attempt) {
      inFlight.set(key, attempt);
      const release = (): void => {
        if (inFlight.get(key) === attempt) inFlight.delete(key);
      };
      attempt.then(release, release);
      return attempt;
    },
    snapshot: () => [...memos].map(([key, memo]) => ({ key, memo })),
    forget(key) {
      memos.delete(key);
    },
  };
}
