import { useNow } from '../../components/use-now';
import { useResource } from '../../resources/resource-context';
import { COOLDOWNS } from '../../resources/shared-data';

/**
 * The core's clock, ticking each second: `snapshot.now` plus the local time since it arrived, so a
 * skewed local clock never shows a wrong time left on the countdowns of the cooldowns snapshot.
 */
export function useCoreNow(): number {
  const { data: snapshot, receivedAt } = useResource(COOLDOWNS);
  const local = useNow();
  return snapshot ? snapshot.now + Math.max(0, local - receivedAt) : local;
}
