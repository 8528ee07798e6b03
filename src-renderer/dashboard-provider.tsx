import type { ReactNode } from 'react';
import { CreatedKeyProvider } from './features/keys/created-key';
import type { ResourceCache } from './resources/resource-cache';
import { ResourcesProvider } from './resources/resource-context';

/** Everything a dashboard view reads from above: the core's data (and actions) and this page's own memory. */
export function DashboardProvider({ cache, children }: { cache: ResourceCache; children: ReactNode }) {
  return (
    <ResourcesProvider cache={cache}>
      <CreatedKeyProvider>{children}</CreatedKeyProvider>
    </ResourcesProvider>
  );
}
