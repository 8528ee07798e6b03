import { fail, ok, type Result } from '../../src-shared/contract/errors';
import {
  AGENT_TITLES,
  type AgentFileChange,
  type AgentId,
  type AgentSetupChange,
  type AgentSetupResult,
  type AgentSetupStatus,
  type AgentSnippet,
  type AgentUndoResult,
} from '../../src-shared/domain/agent-setup';
import type { AgentFile, AgentSetup, Env, SetupValues } from './agent-setup';
import { agentStatus, newestBackup } from './agent-status';
import { backUpAndWrite, readConfigText, restoreBackup } from './config-files';
import { diffLines } from './diff-lines';
import { maskSecrets } from './mask-secrets';
import { AGENT_SETUPS } from './agents/registry';

/** Placeholder for a key the caller cannot know (the tray: keys are stored hashed and shown once). */
export const KEY_PLACEHOLDER = '<your-leeway-key>';

export interface AgentSetupService {
  list(): AgentSetupStatus[];
  preview(agent: AgentId, values: Omit<SetupValues, 'proxyUrl'>): Result<AgentSetupChange>;
  apply(agent: AgentId, values: Omit<SetupValues, 'proxyUrl'>): Result<AgentSetupResult>;
  undo(agent: AgentId): Result<AgentUndoResult>;
  snippet(agent: AgentId, key: string | null): AgentSnippet;
}

export interface AgentSetupServiceDeps {
  /** Read per call, so the paths follow the HOME (and XDG_CONFIG_HOME, CODEX_HOME) Leeway runs with. */
  env(): Env;
  now(): number;
  proxyUrl(): string;
  agents?: readonly AgentSetup[];
}

interface PlannedFile {
  file: AgentFile;
  current: string | null;
  next: string;
}

/** Every file's next text, or the first refusal (a broken file is named and left alone). */
function planAll(files: AgentFile[], values: SetupValues): Result<PlannedFile[]> {
  const planned: PlannedFile[] = [];
  for (const file of files) {
    const current = readConfigText(file.path);
    if (!current.ok) return current;
    const next = file.plan(current.value, values);
    if (!next.ok) return next;
    planned.push({ file, current: current.value, next: next.value });
  }
  return ok(planned);
}

function describe(agent: AgentSetup, planned: PlannedFile[], key: string): AgentSetupChange {
  const files: AgentFileChange[] = planned.map(({ file, current, next }) => ({
    path: file.path,
    exists: current !== null,
    diff: diffLines(maskSecrets(current ?? '', key), maskSecrets(next, key)),
    changes: current !== next,
  }));
  return { agent: agent.id, files, changes: files.some((f) => f.changes), note: agent.note };
}

/** Preview, apply, undo, status and snippet, the same way for every agent (issue 23 §2). */
export function createAgentSetupService(deps: AgentSetupServiceDeps): AgentSetupService {
  const agents = deps.agents ?? AGENT_SETUPS;
  const find = (id: AgentId): AgentSetup => {
    const agent = agents.find((a) => a.id === id);
    if (!agent) throw new Error(`No setup for agent ${id}`);
    return agent;
  };
  const plan = (id: AgentId, values: Omit<SetupValues, 'proxyUrl'>) => {
    const agent = find(id);
    const planned = planAll(agent.files(deps.env()), { ...values, proxyUrl: deps.proxyUrl() });
    return planned.ok ? ok({ agent, planned: planned.value }) : planned;
  };
  return {
    list: () => agents.map((agent) => agentStatus(agent, deps.env(), deps.proxyUrl())),
    preview: (id, values) => {
      const p = plan(id, values);
      return p.ok ? ok(describe(p.value.agent, p.value.planned, values.key)) : p;
    },
    apply: (id, values) => {
      const p = plan(id, values);
      if (!p.ok) return p;
      const change = describe(p.value.agent, p.value.planned, values.key);
      const now = deps.now();
      const backups: string[] = [];
      for (const { file, current, next } of p.value.planned) {
        if (current === next) continue;
        const written = backUpAndWrite(file.path, next, now);
        if (!written.ok) return written;
        backups.push(written.value);
      }
      return ok({ ...change, backups });
    },
    undo: (id) => undoAgent(find(id), deps.env()),
    snippet: (id, key) => {
      const agent = find(id);
      const { target, text } = agent.snippet({ proxyUrl: deps.proxyUrl(), key: key ?? KEY_PLACEHOLDER }, deps.env());
      return { agent: id, title: AGENT_TITLES[id], target, text };
    },
  };
}

/** Every file of the newest Apply goes back as it was; its backups are used up. */
function undoAgent(agent: AgentSetup, env: Env): Result<AgentUndoResult> {
  const paths = agent.files(env).map((f) => f.path);
  const newest = newestBackup(paths);
  if (!newest) return fail('not_found', `No Leeway backup of ${paths.join(' or ')} to restore`);
  const restored: AgentUndoResult['restored'] = [];
  for (const entry of newest.entries) {
    const done = restoreBackup(entry.path, entry.backup);
    if (!done.ok) return done;
    restored.push({ path: entry.path, restoredFrom: entry.backup.file, removedFile: entry.backup.absent });
  }
  return ok({ agent: agent.id, restored });
}
