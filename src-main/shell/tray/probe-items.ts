import type { Result } from '../../../src-shared/contract/errors';
import type { ProbeResult, ProbeTarget } from '../../../src-shared/contract/methods';
import { callContract, type ContractRouter } from '../contract-call';
import type { ShellNotification } from '../notifications/notifications-for';
import type { CoolingItem } from './cooling-items';

/**
 * "Probe now" in the tray (issue 13 §8): one item per cooling entry, beside its Clear. The core's
 * `cooldowns.probe` sends one cheap request (the upstream's model list, no tokens) and lifts the
 * cooldown, breaker or lockout only when the upstream answers; terminal states are never probed.
 */
export type ProbeTrayAction = { kind: 'probe'; target: ProbeTarget };

/** The menu item, shaped like tray-template's `normal` item so it drops into a cooling submenu. */
export interface ProbeMenuItem {
  type: 'normal';
  label: string;
  enabled: boolean;
  action: ProbeTrayAction;
}

/** What the core probes for a cooling entry: the connection, the provider's breaker, or the one lockout. */
export function probeTargetOf(item: CoolingItem): ProbeTarget {
  switch (item.kind) {
    case 'connection':
      return { target: 'connection', connection: item.name };
    case 'provider':
      return { target: 'provider', provider: item.provider };
    case 'model':
      return { target: 'model', key: item.key };
  }
}

export const PROBE_LABEL = 'Probe now (one cheap request)';

export function probeNowItem(item: CoolingItem): ProbeMenuItem {
  return { type: 'normal', label: PROBE_LABEL, enabled: true, action: { kind: 'probe', target: probeTargetOf(item) } };
}

/** Runs the probe through the contract, as every tray action does. */
export function dispatchProbeAction(action: ProbeTrayAction, router: ContractRouter): Promise<Result<ProbeResult>> {
  return callContract(router, 'cooldowns.probe', action.target);
}

/** What the person who pressed it is told: the probe's own sentence, or why it could not run. */
export function probeNotification(result: Result<ProbeResult>): ShellNotification {
  if (!result.ok) return { title: 'Probe not sent', body: result.error.message };
  const { value } = result;
  const title = value.lifted
    ? `${value.connection ?? 'Probe'}: back in rotation`
    : `${value.connection ?? 'Probe'}: still cooling`;
  return { title, body: value.message };
}
