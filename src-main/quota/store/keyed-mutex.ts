/**
 * A promise-chain mutex per string key (QWIN-4): callers with the same key run one after another,
 * different keys never wait on each other. The map holds only keys with work queued or running; the
 * last task of a chain removes its entry, so idle keys cost nothing.
 */
export interface KeyedMutex {
  /** Runs `task` once every earlier task of `key` has settled; resolves or rejects as `task` does. */
  run<T>(key: string, task: () => T | Promise<T>): Promise<T>;
  /** Keys with a task queued or running (tests: the map must drain). */
  size(): number;
  /**
   * Whether `key` has a task queued or running. When it has none, a synchronous critical section
   * may run at once: nothing can start between this check and its end (one thread), so that is the
   * lock taken and released without a promise.
   */
  busy(key: string): boolean;
}

export function createKeyedMutex(): KeyedMutex {
  const tails = new Map<string, Promise<void>>();
  return {
    run<T>(key: string, task: () => T | Promise<T>): Promise<T> {
      const before = tails.get(key) ?? Promise.resolve();
      const result = before.then(task);
      // The chain must never reject, or the next task of this key would be skipped.
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
    size: () => tails.size,
    busy: (key) => tails.has(key),
  };
}
