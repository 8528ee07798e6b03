import type { CoreEvent } from '../../../src-shared/contract/events';
import type { ComboView } from '../../../src-shared/domain/combo';
import type { ConnectionView } from '../../../src-shared/domain/connection';
import type { CooldownSnapshot } from '../../../src-shared/domain/cooldown';
import { callContract, type ContractRouter } from '../contract-call';
import { withoutDisabled } from '../tray/cooling-items';
import { capNotifications, notificationsFor, type ShellNotification } from './notifications-for';
import { recoveryAlerts, type OutageState } from './recovery-alerts';
import { usageAlerts, type UsageAlertState } from './usage-alerts';

/** How often usage windows are read and cooldowns that ended by time are noticed. */
export const NOTIFIER_TICK_MS = 30_000;

export interface NotifierDeps {
  router: ContractRouter;
  subscribe(listener: (event: CoreEvent) => void): () => void;
  show(notification: ShellNotification): void;
  /** Wall clock for the timer's checks; events are judged at their snapshot's own time. */
  now?: () => number;
  /** Runs `tick` every `ms` until the returned stop is called; a test drives it by hand. */
  every?: (tick: () => void, ms: number) => () => void;
}

const realTimer = (tick: () => void, ms: number): (() => void) => {
  const handle = setInterval(tick, ms);
  // The app quits when its windows and tray say so, never kept alive by this timer.
  handle.unref();
  return () => clearInterval(handle);
};

/**
 * Feeds the pure notification deciders from core events without Electron: terminal states and
 * combos that lost every target (notificationsFor, on each cooldowns.changed against the one
 * before; the first snapshot, read through cooldowns.list, is the baseline), connections that
 * recovered (recoveryAlerts, on each snapshot and on the timer, since cooldowns end by time), and
 * usage windows and quota pools at 80 / 95 / 100 % (usageAlerts over overview.usage on the timer;
 * the first reading is the baseline, so a restart does not repeat what was already said).
 */
export function createNotifier(deps: NotifierDeps): { start(): Promise<void>; stop(): void } {
  const now = deps.now ?? Date.now;
  const every = deps.every ?? realTimer;
  let previous: CooldownSnapshot | null = null;
  let combos: ComboView[] = [];
  let combosFromEvent = false;
  let disabled: ReadonlySet<string> = new Set();
  let outages: OutageState = new Map();
  let usage: UsageAlertState | null = null;
  let unsubscribe: () => void = () => {};
  let stopTimer: () => void = () => {};
  let stopped = false;

  const showAll = (list: ShellNotification[]): void => {
    for (const notification of capNotifications(list)) deps.show(notification);
  };
  const setDisabled = (connections: readonly ConnectionView[]): void => {
    disabled = new Set(connections.filter((c) => !c.enabled).map((c) => c.id));
  };
  const checkRecovery = (snapshot: CooldownSnapshot, at: number): ShellNotification[] => {
    const decided = recoveryAlerts(withoutDisabled(snapshot, disabled), outages, at);
    outages = decided.state;
    return decided.notifications;
  };
  const checkUsage = async (): Promise<void> => {
    const summary = await callContract(deps.router, 'overview.usage', undefined);
    if (stopped || !summary.ok || !summary.value) return;
    const decided = usageAlerts(summary.value, usage, now());
    usage = decided.state;
    showAll(decided.notifications);
  };
  const tick = (): void => {
    if (previous) showAll(checkRecovery(previous, now()));
    void checkUsage().catch(() => {});
  };

  const onEvent = (event: CoreEvent): void => {
    if (event.type === 'combos.changed') {
      combos = event.payload.combos;
      combosFromEvent = true;
    }
    if (event.type === 'connections.changed') setDisabled(event.payload.connections);
    if (event.type !== 'cooldowns.changed') return;
    const next = event.payload.snapshot;
    showAll([...notificationsFor(previous, next, combos), ...checkRecovery(next, next.now)]);
    previous = next;
  };

  return {
    async start() {
      unsubscribe = deps.subscribe(onEvent);
      const [listed, snapshot, connections] = await Promise.all([
        callContract(deps.router, 'combos.list', undefined),
        callContract(deps.router, 'cooldowns.list', undefined),
        callContract(deps.router, 'connections.list', undefined),
      ]);
      if (listed.ok && !combosFromEvent) combos = listed.value;
      if (connections.ok && Array.isArray(connections.value)) setDisabled(connections.value);
      // An event may already have set a newer baseline while we read.
      if (snapshot.ok && snapshot.value && previous === null) {
        previous = snapshot.value;
        checkRecovery(snapshot.value, snapshot.value.now);
      }
      await checkUsage().catch(() => {});
      if (!stopped) stopTimer = every(tick, NOTIFIER_TICK_MS);
    },
    stop() {
      stopped = true;
      unsubscribe();
      stopTimer();
    },
  };
}
