/** A listener hears each topic as it is emitted, synchronously; it must not throw. */
export type ChangeListener<T extends string> = (topic: T) => void;

/**
 * A tiny typed emitter (issue 22): writers say what changed, readers react. Unlike the event bus it
 * carries no payload and never reaches a window: it is how the core's own derived state (the runtime
 * catalog, the quota index) learns that its sources moved.
 */
export interface ChangeFeed<T extends string> {
  emit(topic: T): void;
  subscribe(listener: ChangeListener<T>): () => void;
}

export function createChangeFeed<T extends string>(): ChangeFeed<T> {
  const listeners = new Set<ChangeListener<T>>();
  return {
    emit(topic) {
      for (const listener of listeners) listener(topic);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
