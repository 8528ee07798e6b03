import {
  AGENT_TITLES,
  type AgentBackup,
  type AgentSetupState,
  type AgentSetupStatus,
} from '../../src-shared/domain/agent-setup';
import type { AgentSetup, Env } from './agent-setup';
import { backupsOf, readConfigText, type Backup } from './config-files';

const trimSlash = (url: string): string => url.replace(/\/+$/, '');

/** The newest Apply's backups: every file backed up at the newest time any of them was. */
export function newestBackup(paths: string[]): { at: number; entries: { path: string; backup: Backup }[] } | null {
  const all = paths.flatMap((path) => backupsOf(path).map((backup) => ({ path, backup })));
  if (all.length === 0) return null;
  const at = Math.max(...all.map((e) => e.backup.at));
  // Older backups of the same file stay for a later Undo.
  const entries = paths.flatMap((path) => {
    const backup = backupsOf(path).find((b) => b.at === at);
    return backup ? [{ path, backup }] : [];
  });
  return { at, entries };
}

function backupView(paths: string[]): AgentBackup | null {
  const newest = newestBackup(paths);
  if (!newest) return null;
  const files = newest.entries.map((e) => ({ path: e.path, backupPath: e.backup.file, removesFile: e.backup.absent }));
  return { at: newest.at, files };
}

/** Where the agent's files send it now: the first base URL any of them names, or why one cannot be read. */
function pointsAt(
  agent: AgentSetup,
  env: Env,
): { state: AgentSetupState | null; url: string | null; detail: string | null } {
  for (const file of agent.files(env)) {
    const text = readConfigText(file.path);
    const url = text.ok ? file.pointsAt(text.value) : text;
    if (!url.ok) return { state: 'unreadable', url: null, detail: url.error.message };
    if (url.value !== null) return { state: null, url: url.value, detail: null };
  }
  return { state: 'not-configured', url: null, detail: null };
}

/** What the Setup tab shows for one agent on load (read from disk, so it survives a reload). */
export function agentStatus(agent: AgentSetup, env: Env, proxyUrl: string): AgentSetupStatus {
  const paths = agent.files(env).map((f) => f.path);
  const found = pointsAt(agent, env);
  const state: AgentSetupState =
    found.state ?? (trimSlash(found.url ?? '') === trimSlash(agent.expectedUrl(proxyUrl)) ? 'configured' : 'elsewhere');
  return {
    agent: agent.id,
    title: AGENT_TITLES[agent.id],
    paths,
    state,
    detail: state === 'elsewhere' ? found.url : found.detail,
    backup: backupView(paths),
    note: agent.note,
  };
}
