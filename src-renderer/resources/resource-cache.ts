import type { MethodName, MethodOutput } from '../../src-shared/contract/methods';
import type { ApiClient } from '../api/api-client';
import { createResource, resourceKey, type Resource, type ResourceSpec } from './resource';

/** Every resource of one dashboard, by method and input, so readers of one datum share it. */
export interface ResourceCache {
  readonly api: ApiClient;
  get<M extends MethodName>(spec: ResourceSpec<M>): Resource<MethodOutput<M>>;
  /** Re-reads the resources of these methods that someone reads now (any input); the others re-read when next read. */
  invalidate(methods: readonly MethodName[]): Promise<void>;
}

export function createResourceCache(api: ApiClient, clock?: () => number): ResourceCache {
  // Typed per entry by its method: `get` stores what `createResource` made for that same method.
  const resources = new Map<string, Resource<unknown>>();
  return {
    api,
    get<M extends MethodName>(spec: ResourceSpec<M>): Resource<MethodOutput<M>> {
      const key = resourceKey(spec.method, spec.input);
      const known = resources.get(key) as Resource<MethodOutput<M>> | undefined;
      if (known) return known;
      const made = createResource(api, spec, clock);
      resources.set(key, made);
      return made;
    },
    async invalidate(methods) {
      const wanted = new Set<MethodName>(methods);
      const due = [...resources.values()].filter((r) => wanted.has(r.method) && r.active());
      await Promise.all(due.map((r) => r.reload()));
    },
  };
}
