import type { ReactNode } from 'react';
import type { ResourceView } from '../resources/resource-context';
import { LoadError } from './load-error';

/** Shows a resource's loading and error states, and its content once the data is in. */
export function LoadGate<T>({
  resource,
  what = 'this list',
  children,
}: {
  resource: ResourceView<T>;
  /** Named in the error: "Could not load <what>: …". */
  what?: string;
  children: (data: T) => ReactNode;
}) {
  if (resource.error) return <LoadError what={what} error={resource.error} onRetry={resource.reload} />;
  if (resource.data === undefined) return <p className="muted">Loading…</p>;
  return <>{children(resource.data)}</>;
}
