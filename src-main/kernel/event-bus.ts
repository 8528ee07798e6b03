import type { CoreEvent, EventMap, EventName } from '../../src-shared/contract/events';

export type EventListener = (event: CoreEvent) => void;

/** In-process fan-out of core events to the doors (IPC window, HTTP SSE, tray). */
export interface EventBus {
  emit<K extends EventName>(type: K, payload: EventMap[K]): void;
  subscribe(listener: EventListener): () => void;
  listenerCount(): number;
}

export function createEventBus(): EventBus {
  const listeners = new Set<EventListener>();
  return {
    emit(type, payload) {
      const event = { type, payload } as CoreEvent;
      for (const listener of listeners) {
        try {
          listener(event);
        } catch {
          // One broken subscriber must not stop the others or the request that emitted.
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    listenerCount: () => listeners.size,
  };
}
