import { useEffect, useRef } from 'react';
import type { EventMap, EventName } from '../../src-shared/contract/events';
import { onEventType } from '../api/api-client';
import { useResourceCache } from './resource-context';

/** Hears one core event while the view is shown: for signals that are no datum (storage.lost, a finished request). */
export function useCoreEvent<K extends EventName>(type: K, listener: (payload: EventMap[K]) => void): void {
  const { api } = useResourceCache();
  // The latest listener, without re-subscribing on every render.
  const latest = useRef(listener);
  useEffect(() => {
    latest.current = listener;
  });
  useEffect(() => onEventType(api, type, (payload) => latest.current(payload)), [api, type]);
}
