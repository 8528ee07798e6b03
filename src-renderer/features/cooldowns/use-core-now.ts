import { useStore } from 'zustand';
import { useNow } from '../../components/use-now';
import { coreNow, type CooldownsStore } from '../../stores/cooldowns-store';

/** The core's clock, ticking each second: what every countdown of the cooldowns snapshot compares against. */
export function useCoreNow(store: CooldownsStore): number {
  const snapshot = useStore(store, (s) => s.snapshot);
  const receivedAt = useStore(store, (s) => s.receivedAt);
  return coreNow({ snapshot, receivedAt }, useNow());
}
