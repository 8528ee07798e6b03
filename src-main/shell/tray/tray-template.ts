import type { ActivitySummary, ProxyInfo } from '../../../src-shared/contract/methods';
import { AGENT_IDS, AGENT_TITLES } from '../../../src-shared/domain/agent-setup';
import type { CooldownSnapshot } from '../../../src-shared/domain/cooldown';
import {
  claudeHasCountdown,
  claudeLaneLine,
  claudeUsageLine,
  needsSignIn,
  type TrayClaudeConnection,
} from './claude-items';
import { probeNowItem } from './probe-items';
import { coolingItems, formatTimeLeft, terminalItems, type CoolingItem, type TerminalItem } from './cooling-items';
import { quotaLine, type TrayQuotaItem } from './quota-items';
import { heldActionLabel, heldLine, MAX_HELD_LINES } from './held-items';
import type { HeldRequestView } from '../../../src-shared/domain/held';
import type { TrayAction } from './tray-actions';
import { firstRecoveryMs, trayState, type TrayState } from './tray-state';

/** Everything the tray shows, read through the contract (cooldowns.list, app.info, activity.summary, connections.list, claude.status, quota.*). */
export interface TrayModel {
  snapshot: CooldownSnapshot;
  info: Pick<ProxyInfo, 'proxyUrl' | 'paused'>;
  summary: ActivitySummary;
  /** Claude subscription connections with their usage windows and lane, by name. */
  claude: readonly TrayClaudeConnection[];
  /** Null where the platform has no login item Leeway can set. */
  openAtLogin: boolean | null;
  /** Set once the core reports its data directory gone (storage.lost): nothing is saved until a restart. */
  storageLost?: string | null;
  /** Quota pools at or past their saturation threshold (quota.listPools + quota.poolUsage), most used first. */
  quota?: readonly TrayQuotaItem[];
  /** Requests waiting now (held.list, kept current by held.changed), oldest first (issue 24 §2). */
  held?: readonly HeldRequestView[];
}

/** At most this many quota lines; the rest are counted on one more line. */
export const MAX_QUOTA_LINES = 3;

/** "Quota: team 85 % (5h tokens)" per pool near saturation; each opens the window (the Quota tab says why). */
function quotaLines(items: readonly TrayQuotaItem[]): TrayMenuItem[] {
  const shown = items.slice(0, MAX_QUOTA_LINES).map((item) => act(quotaLine(item), { kind: 'open' }));
  const rest = items.length - shown.length;
  return rest > 0 ? [...shown, info(`…and ${rest} more pool${rest === 1 ? '' : 's'} near saturation`)] : shown;
}

/** The tray's loud line while storage is lost; first in the menu and in the tooltip. */
export const STORAGE_LOST_LINE = '⚠ Data directory lost — nothing is saved; restart Leeway';

/** A serialisable menu description; tray-menu.ts turns it into Electron's template. */
export type TrayMenuItem =
  | { type: 'separator' }
  | { type: 'normal'; label: string; enabled: boolean; action?: TrayAction }
  | { type: 'checkbox'; label: string; enabled: boolean; checked: boolean; action: TrayAction }
  | { type: 'submenu'; label: string; enabled: boolean; submenu: TrayMenuItem[] };

const SEPARATOR: TrayMenuItem = { type: 'separator' };
const info = (label: string): TrayMenuItem => ({ type: 'normal', label, enabled: false });
const act = (label: string, action: TrayAction, enabled = true): TrayMenuItem => ({
  type: 'normal',
  label,
  enabled,
  action,
});

/** Words for terminal statuses; an unknown one is shown by its own name. */
const TERMINAL_LABELS: Readonly<Record<string, string>> = {
  banned: 'banned',
  expired: 'credential expired',
  credits_exhausted: 'credits exhausted',
  needs_reauth: 'needs a new sign-in',
};

function stateLine(state: TrayState, model: TrayModel, now: number, cooling: number, terminal: number): string {
  switch (state) {
    case 'paused':
      return 'Leeway — paused (requests get 503)';
    case 'blocked': {
      const back = firstRecoveryMs(model.snapshot, now);
      return back === null
        ? 'Leeway — blocked: no connection can serve'
        : `Leeway — blocked: first connection back in ${formatTimeLeft(back)}`;
    }
    case 'cooling': {
      const parts = [cooling > 0 ? `${cooling} cooling` : null, terminal > 0 ? `${terminal} need attention` : null];
      return `Leeway — serving, ${parts.filter((p) => p !== null).join(', ')}`;
    }
    case 'serving':
      return 'Leeway — serving';
  }
}

function requestsLine(summary: ActivitySummary): string {
  const errors = summary.errorsToday > 0 ? ` (${summary.errorsToday} failed)` : '';
  return `Requests today: ${summary.requestsToday}${errors}`;
}

function coolingEntry(item: CoolingItem): TrayMenuItem {
  const left = formatTimeLeft(item.remainingMs);
  switch (item.kind) {
    case 'connection':
      return {
        type: 'submenu',
        label: `${item.name} — cooling, ${left} left`,
        enabled: true,
        submenu: [probeNowItem(item), act('Clear cooldown', { kind: 'clear-connection', connection: item.name })],
      };
    case 'provider':
      return {
        type: 'submenu',
        label: `Provider ${item.label} — ${item.reason === 'circuit_open' ? 'circuit open' : 'cooling'}, ${left} left`,
        enabled: true,
        submenu: [
          probeNowItem(item),
          act('Clear provider cooldown', { kind: 'clear-provider', provider: item.provider }),
        ],
      };
    case 'model':
      return {
        type: 'submenu',
        label: `${item.connection} · ${item.model} — locked, ${left} left`,
        enabled: true,
        submenu: [probeNowItem(item), act('Clear model lockout', { kind: 'clear-model', key: item.key })],
      };
  }
}

function terminalEntry(item: TerminalItem): TrayMenuItem {
  return {
    type: 'submenu',
    label: `${item.name} — ${TERMINAL_LABELS[item.status] ?? item.status.replace(/_/g, ' ')}`,
    enabled: true,
    submenu: [act('Reset connection', { kind: 'reset-connection', connection: item.name })],
  };
}

function cooldownSubmenu(cooling: CoolingItem[], terminal: TerminalItem[]): TrayMenuItem {
  if (cooling.length + terminal.length === 0) return info('Nothing is cooling');
  const entries = [
    ...cooling.map(coolingEntry),
    ...(cooling.length > 0 && terminal.length > 0 ? [SEPARATOR] : []),
    ...terminal.map(terminalEntry),
  ];
  const label =
    terminal.length > 0
      ? `Cooling (${cooling.length}) · needs attention (${terminal.length})`
      : `Cooling (${cooling.length})`;
  return { type: 'submenu', label, enabled: true, submenu: entries };
}

/**
 * "Claude usage": per subscription connection its 5-hour and weekly usage with the 5-hour reset
 * countdown, plus its lane ("low priority until 14:05") or "needs sign-in" (which opens the window).
 */
function claudeSubmenu(model: TrayModel, now: number): TrayMenuItem[] {
  if (model.claude.length === 0) return [];
  const entries: TrayMenuItem[] = [];
  let signIn = 0;
  let slow = 0;
  for (const item of model.claude) {
    if (entries.length > 0) entries.push(SEPARATOR);
    entries.push(info(claudeUsageLine(item, now)));
    const lane = claudeLaneLine(item, model.snapshot, now);
    if (lane === null) continue;
    if (needsSignIn(item, model.snapshot)) {
      signIn++;
      entries.push(act(`${item.name} — ${lane} (open Leeway to re-import)`, { kind: 'open' }));
    } else {
      slow++;
      entries.push(info(`${item.name} — ${lane}`));
    }
  }
  const flags = [
    signIn > 0 ? `${signIn} need${signIn === 1 ? 's' : ''} sign-in` : null,
    slow > 0 ? 'low priority' : null,
  ];
  const label = ['Claude usage', ...flags.filter((f) => f !== null)].join(' · ');
  return [{ type: 'submenu', label, enabled: true, submenu: entries }];
}

/** "Copy agent setup": each agent's config snippet (issue 23 §2), built by the core with a key placeholder. */
function agentSetupSubmenu(): TrayMenuItem {
  const submenu = AGENT_IDS.map((agent) => act(AGENT_TITLES[agent], { kind: 'copy-agent-setup', agent }));
  return { type: 'submenu', label: 'Copy agent setup', enabled: true, submenu };
}

/** One-line summary for the icon's tooltip. */
/** "Waiting now (N)": each held request with what it waits for, and its actions (issue 24 §2). */
function heldSubmenu(held: readonly HeldRequestView[], now: number): TrayMenuItem[] {
  if (held.length === 0) return [];
  const shown: TrayMenuItem[] = held.slice(0, MAX_HELD_LINES).map((row) => ({
    type: 'submenu',
    label: heldLine(row, now),
    enabled: true,
    submenu: row.actions.map((action) => act(heldActionLabel(action), { kind: 'held', id: row.id, action })),
  }));
  const rest = held.length - shown.length;
  const more = rest > 0 ? [info(`…and ${rest} more (open Leeway)`)] : [];
  return [{ type: 'submenu', label: `Waiting now (${held.length})`, enabled: true, submenu: [...shown, ...more] }];
}

export function trayTooltip(model: TrayModel, now: number): string {
  if (model.storageLost) return `Leeway — ${STORAGE_LOST_LINE}`;
  return `Leeway (${trayState(model.snapshot, model.info, now)}) — ${model.info.proxyUrl}`;
}

/**
 * The tray menu at `now` (PROD-4, PROD-13): status, Claude usage, "Clear all cooldowns (N)" counting only
 * transient items (terminal states are reset one by one, COOL-10), each cooling item with time left
 * and its own action, pause/resume, setup copies, the window, the logs folder, start at login, quit.
 */
export function buildTrayTemplate(model: TrayModel, now: number): TrayMenuItem[] {
  const state = trayState(model.snapshot, model.info, now);
  const cooling = coolingItems(model.snapshot, now);
  const terminal = terminalItems(model.snapshot);
  const loginItem: TrayMenuItem = {
    type: 'checkbox',
    label: 'Start at login',
    enabled: model.openAtLogin !== null,
    checked: model.openAtLogin === true,
    action: { kind: 'toggle-login' },
  };
  return [
    ...(model.storageLost ? [info(STORAGE_LOST_LINE), info(model.storageLost), SEPARATOR] : []),
    info(stateLine(state, model, now, cooling.length, terminal.length)),
    info(`Proxy: ${model.info.proxyUrl}`),
    info(requestsLine(model.summary)),
    ...claudeSubmenu(model, now),
    ...quotaLines(model.quota ?? []),
    SEPARATOR,
    act(`Clear all cooldowns (${cooling.length})`, { kind: 'clear-all' }, cooling.length > 0),
    cooldownSubmenu(cooling, terminal),
    ...heldSubmenu(model.held ?? [], now),
    SEPARATOR,
    model.info.paused ? act('Resume proxy', { kind: 'resume' }) : act('Pause proxy', { kind: 'pause' }),
    SEPARATOR,
    act('Copy Claude Code setup', { kind: 'copy-claude-setup' }),
    act('Copy aider setup', { kind: 'copy-aider-setup' }),
    agentSetupSubmenu(),
    SEPARATOR,
    act('Open Leeway', { kind: 'open' }),
    act('Open logs', { kind: 'open-logs' }),
    loginItem,
    SEPARATOR,
    act('Quit Leeway', { kind: 'quit' }),
  ];
}

/** True while some item counts down (a cooldown, a Claude reset or slot wait), so the menu needs redrawing every second. */
export function hasCountdown(model: TrayModel, now: number): boolean {
  const held = (model.held ?? []).some((row) => row.until !== null);
  return held || coolingItems(model.snapshot, now).length > 0 || claudeHasCountdown(model.claude, now);
}
