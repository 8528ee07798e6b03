import type { ClaudeLaneView } from '../../../src-shared/domain/claude';
import { useNow } from '../../components/use-now';
import { laneBlockText, laneText } from './claude-format';

const CLASS: Record<ClaudeLaneView['kind'], string> = {
  idle: 'badge',
  active: 'badge ok',
  waiting: 'badge warn',
  ended: 'badge',
};

function laneTitle(lane: ClaudeLaneView): string | undefined {
  if (lane.kind !== 'active' && lane.kind !== 'waiting') return laneBlockText(lane) ?? undefined;
  return `Served ${lane.requestsServed} slow and ${lane.requestsServedStandard} at standard speed since the limit`;
}

/** The low-priority lane in one line: idle / active until HH:MM / waiting for a slot / ended: reason. */
export function LaneBadge({ lane, skewMs = 0 }: { lane: ClaudeLaneView; skewMs?: number }) {
  const now = useNow(lane.kind === 'waiting') + skewMs;
  const block = laneBlockText(lane);
  return (
    <div className="lane-line">
      <span className={CLASS[lane.kind]} title={laneTitle(lane)}>
        {laneText(lane, now)}
      </span>
      {block && <span className="small muted"> {block}</span>}
    </div>
  );
}
