import { createContext, useCallback, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { MethodName, MethodOutput } from '../../src-shared/contract/methods';
import type { ResourceState, ResourceSpec } from './resource';
import type { ResourceCache } from './resource-cache';

const CacheContext = createContext<ResourceCache | null>(null);

/** Hands the dashboard's resource cache (and through it the ApiClient) to every view. */
export function ResourcesProvider({ cache, children }: { cache: ResourceCache; children: ReactNode }) {
  return <CacheContext value={cache}>{children}</CacheContext>;
}

export function useResourceCache(): ResourceCache {
  const cache = useContext(CacheContext);
  if (!cache) throw new Error('useResourceCache needs a ResourcesProvider above it');
  return cache;
}

/** A resource as a view reads it: the state plus a way to ask again (a "Try again" button). */
export interface ResourceView<T> extends ResourceState<T> {
  reload(): void;
}

const IDLE: ResourceState<never> = { data: undefined, error: null, loading: false, receivedAt: 0 };
const idle = { subscribe: () => () => {}, getSnapshot: () => IDLE, reload: () => Promise.resolve() };

/**
 * Reads a server datum and re-renders when it changes. `null` reads nothing (a closed card, a
 * connection not saved yet) and keeps the hook order stable.
 */
export function useResource<M extends MethodName>(spec: ResourceSpec<M> | null): ResourceView<MethodOutput<M>> {
  const cache = useResourceCache();
  const resource = spec ? cache.get(spec) : idle;
  const state = useSyncExternalStore(resource.subscribe, resource.getSnapshot, resource.getSnapshot);
  const reload = useCallback(() => void resource.reload(), [resource]);
  return { ...state, reload };
}
