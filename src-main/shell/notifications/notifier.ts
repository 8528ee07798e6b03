import type { CoreEvent } from '../../../src-shared/contract/events';
import type { ComboView } from '../../../src-shared/domain/combo';
import type { CooldownSnapshot } from '../../../src-shared/domain/cooldown';
import { callContract, type ContractRouter } from '../contract-call';
import { capNotifications, notificationsFor, type ShellNotification } from './notifications-for';

export interface NotifierDeps {
  router: ContractRouter;
  subscribe(listener: (event: CoreEvent) => void): () => void;
  show(notification: ShellNotification): void;
}

/**
 * Feeds notificationsFor from core events without Electron: the first snapshot (read through
 * cooldowns.list) is the baseline, each cooldowns.changed is compared with the one before, and
 * combos come from combos.list and combos.changed.
 */
export function createNotifier(deps: NotifierDeps): { start(): Promise<void>; stop(): void } {
  let previous: CooldownSnapshot | null = null;
  let combos: ComboView[] = [];
  let combosFromEvent = false;
  let unsubscribe: () => void = () => {};

  const onEvent = (event: CoreEvent): void => {
    if (event.type === 'combos.changed') {
      combos = event.payload.combos;
      combosFromEvent = true;
    }
    if (event.type !== 'cooldowns.changed') return;
    const next = event.payload.snapshot;
    for (const notification of capNotifications(notificationsFor(previous, next, combos))) deps.show(notification);
    previous = next;
  };

  return {
    async start() {
      unsubscribe = deps.subscribe(onEvent);
      const [listed, snapshot] = await Promise.all([
        callContract(deps.router, 'combos.list', undefined),
        callContract(deps.router, 'cooldowns.list', undefined),
      ]);
      if (listed.ok && !combosFromEvent) combos = listed.value;
      // An event may already have set a newer baseline while we read.
      if (snapshot.ok && previous === null) previous = snapshot.value;
    },
    stop() {
      unsubscribe();
    },
  };
}
