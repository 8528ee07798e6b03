import type { ConnectionView } from '../../../src-shared/domain/connection';
import { useResource } from '../../resources/resource-context';
import { CLAUDE_STATUS } from '../../resources/shared-data';
import { LaneBadge } from './lane-badge';
import { LastReset } from './last-reset';
import { UsageBars } from './usage-bars';

/**
 * What a Claude subscription connection's card adds: usage bars with reset countdowns, the
 * low-priority lane (when opted in or ever used) and the last limit reset (PROD-5).
 */
export function ClaudeStatus({ view, skewMs = 0 }: { view: ConnectionView; skewMs?: number }) {
  // A connection without an entry has seen no usage and has an idle lane.
  const status = useResource(CLAUDE_STATUS).data?.find((s) => s.connectionId === view.id);
  const lane = status?.lane ?? { kind: 'idle' };
  const showLane = view.providerSpecificData.lowPriorityMode === true || lane.kind !== 'idle';
  return (
    <div className="claude-status" data-testid={`claude-status-${view.name}`}>
      <UsageBars usage={status?.usage ?? null} skewMs={skewMs} />
      {showLane && <LaneBadge lane={lane} skewMs={skewMs} />}
      <LastReset lastReset={status?.lastReset ?? null} />
    </div>
  );
}
