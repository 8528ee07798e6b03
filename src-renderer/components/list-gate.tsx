import type { ReactNode } from 'react';
import type { ResourceView } from '../resources/resource-context';
import { LoadGate } from './load-gate';

/** A list resource's three faces: loading or its error, what an empty list means, or the list itself. */
export function ListGate<T>({
  resource,
  empty,
  children,
}: {
  resource: ResourceView<readonly T[]>;
  /** Shown for an empty list: what it means and how to fill it (an EmptyState). */
  empty: ReactNode;
  children: (items: readonly T[]) => ReactNode;
}) {
  return <LoadGate resource={resource}>{(items) => (items.length === 0 ? empty : children(items))}</LoadGate>;
}
