import { fail, ok, type Result } from '../../../src-shared/contract/errors';
import type { AgentId } from '../../../src-shared/domain/agent-setup';
import { callContract, type ContractRouter } from '../contract-call';
import type { ShellNotification } from '../notifications/notifications-for';
import { dispatchProbeAction, probeNotification, type ProbeTrayAction } from './probe-items';
import { aiderSetup, claudeCodeSetup } from './setup-snippets';
import type { HeldAction } from '../../../src-shared/domain/held';

/** What a tray menu item does; serialisable so templates can be compared in tests. */
export type TrayAction =
  | { kind: 'clear-all' }
  | { kind: 'clear-connection'; connection: string }
  | { kind: 'clear-provider'; provider: string }
  | { kind: 'clear-model'; key: string }
  | { kind: 'reset-connection'; connection: string }
  | { kind: 'pause' }
  | { kind: 'resume' }
  | { kind: 'copy-claude-setup' }
  | { kind: 'copy-aider-setup' }
  | { kind: 'copy-agent-setup'; agent: AgentId }
  | { kind: 'open' }
  | { kind: 'open-logs' }
  | { kind: 'toggle-login' }
  | { kind: 'quit' }
  /** Issue 24 §2: an operator's action on a held request. */
  | { kind: 'held'; id: string; action: HeldAction }
  | ProbeTrayAction;

/** Where "Start at login" lives; `supported` is false where the platform offers nothing to set. */
export interface LoginItem {
  supported: boolean;
  get(): boolean;
  set(enabled: boolean): void;
}

/** Everything an action may touch, injected so tests can record it without Electron. */
export interface TrayActionDeps {
  router: ContractRouter;
  /** Electron's `clipboard.writeText` resolves once the text is on the clipboard. */
  clipboard: { writeText(text: string): Promise<void> };
  openWindow(): void;
  /** Opens the logs folder in the file manager; resolves to an error text, '' on success (Electron's `shell.openPath`). */
  openLogs(): Promise<string>;
  loginItem: LoginItem;
  quit(): void;
  /** Redraws the menu after a change no core event reports (the login item). */
  redraw(): void;
  /** Shows a desktop notification (the result of "Probe now"). */
  notify?(notification: ShellNotification): void;
}

async function copySetup(deps: TrayActionDeps, build: (proxyUrl: string) => string): Promise<Result<unknown>> {
  const info = await callContract(deps.router, 'app.info', undefined);
  if (!info.ok) return info;
  const text = build(info.value.proxyUrl);
  await deps.clipboard.writeText(text);
  return ok({ copied: text });
}

/** An agent's snippet as the core builds it (issue 23 §2), with a key placeholder: the tray knows no plain key. */
async function copyAgentSetup(deps: TrayActionDeps, agent: AgentId): Promise<Result<unknown>> {
  const snippet = await callContract(deps.router, 'setup.agent.snippet', { agent });
  if (!snippet.ok) return snippet;
  await deps.clipboard.writeText(snippet.value.text);
  return ok({ copied: snippet.value.text });
}

/**
 * Runs one tray action: state changes go through the contract (the same router the window uses,
 * so terminal states are only ever touched by connections.reset — COOL-10); the rest are shell effects.
 */
export async function dispatchTrayAction(action: TrayAction, deps: TrayActionDeps): Promise<Result<unknown>> {
  switch (action.kind) {
    case 'clear-all':
      return callContract(deps.router, 'cooldowns.clear', { target: 'all' });
    case 'clear-connection':
      return callContract(deps.router, 'cooldowns.clear', { target: 'connection', connection: action.connection });
    case 'clear-provider':
      return callContract(deps.router, 'cooldowns.clear', { target: 'provider', provider: action.provider });
    case 'clear-model':
      return callContract(deps.router, 'cooldowns.clear', { target: 'model', key: action.key });
    case 'held':
      return callContract(deps.router, 'held.act', { id: action.id, action: action.action });
    case 'reset-connection':
      return callContract(deps.router, 'connections.reset', { name: action.connection });
    case 'pause':
      return callContract(deps.router, 'app.setPaused', { paused: true });
    case 'resume':
      return callContract(deps.router, 'app.setPaused', { paused: false });
    case 'copy-claude-setup':
      return copySetup(deps, (url) => claudeCodeSetup(url));
    case 'copy-aider-setup':
      return copySetup(deps, (url) => aiderSetup(url));
    case 'copy-agent-setup':
      return copyAgentSetup(deps, action.agent);
    case 'open':
      deps.openWindow();
      return ok(null);
    case 'open-logs': {
      const error = await deps.openLogs();
      return error === '' ? ok(null) : fail('internal_error', `Could not open the logs folder: ${error}`);
    }
    case 'toggle-login': {
      if (!deps.loginItem.supported) return ok({ openAtLogin: false });
      try {
        deps.loginItem.set(!deps.loginItem.get());
      } catch {
        return fail('internal_error', 'Could not change the start-at-login setting');
      } finally {
        deps.redraw();
      }
      return ok({ openAtLogin: deps.loginItem.get() });
    }
    case 'probe': {
      const result = await dispatchProbeAction(action, deps.router);
      deps.notify?.(probeNotification(result));
      return result;
    }
    case 'quit':
      deps.quit();
      return ok(null);
  }
}
