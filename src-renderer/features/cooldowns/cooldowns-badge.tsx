import { useResource } from '../../resources/resource-context';
import { COOLDOWNS } from '../../resources/shared-data';
import { activeCooldowns } from './cooldown-time';
import { useCoreNow } from './use-core-now';

/** The number of benched items beside the Cooldowns tab, so trouble shows from any tab. */
export function CooldownsBadge() {
  const snapshot = useResource(COOLDOWNS).data;
  const now = useCoreNow();
  if (!snapshot) return null;
  const active = activeCooldowns(snapshot, now);
  const count = active.connections.length + active.providers.length + active.models.length;
  if (count === 0) return null;
  return (
    <span className="tab-count" aria-label={`${count} cooling`}>
      {count}
    </span>
  );
}
