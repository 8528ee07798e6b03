import { z } from 'zod';
import type { DiffLine } from '../contract/methods';

/** The coding agents Leeway can point at itself in one click, besides Claude Code (issue 23 §2). */
export const AGENT_IDS = ['codex', 'opencode', 'qwen-code', 'gemini-cli', 'aider'] as const;
export type AgentId = (typeof AGENT_IDS)[number];
export const agentIdSchema = z.enum(AGENT_IDS);

/** How each agent is named on the Setup tab and in the tray. */
export const AGENT_TITLES: Readonly<Record<AgentId, string>> = {
  codex: 'codex',
  opencode: 'opencode',
  'qwen-code': 'Qwen Code',
  'gemini-cli': 'Gemini CLI',
  aider: 'aider',
};

/** The local key the agent will send; like Claude Code's, it must be a live Leeway local key. */
export const agentSetupInputSchema = z
  .object({ agent: agentIdSchema, authToken: z.string().trim().min(1).max(512) })
  .strict();
export const agentOnlySchema = z.object({ agent: agentIdSchema }).strict();
/** The copyable snippet; without a key it shows a placeholder (the tray cannot know a plain key). */
export const agentSnippetInputSchema = z
  .object({ agent: agentIdSchema, authToken: z.string().trim().min(1).max(512).optional() })
  .strict();

/**
 * configured: the agent's files send it to this Leeway; elsewhere: they name another base URL (another
 * Leeway, an old port); not-configured: nothing of Leeway's is there; unreadable: a file is broken.
 */
export type AgentSetupState = 'configured' | 'not-configured' | 'elsewhere' | 'unreadable';

/** Leeway's newest backup of an agent's files: what Undo puts back. */
export interface AgentBackup {
  /** When "Apply" made it (epoch ms). */
  at: number;
  /** Each file with its backup; removesFile: there was no such file before, so Undo removes it. */
  files: { path: string; backupPath: string; removesFile: boolean }[];
}

export interface AgentSetupStatus {
  agent: AgentId;
  title: string;
  /** The files Apply writes, in order. */
  paths: string[];
  state: AgentSetupState;
  /** The base URL the files name now (for "elsewhere"), or why a file cannot be read. */
  detail: string | null;
  backup: AgentBackup | null;
  /** What the person still has to do, if anything (e.g. export the key variable codex reads). */
  note: string;
}

/** One file of a preview: its diff (secrets masked), and whether anything changes. */
export interface AgentFileChange {
  path: string;
  exists: boolean;
  diff: DiffLine[];
  changes: boolean;
}

export interface AgentSetupChange {
  agent: AgentId;
  files: AgentFileChange[];
  /** False when every file already says exactly this (then nothing is written). */
  changes: boolean;
  note: string;
}

export interface AgentSetupResult extends AgentSetupChange {
  /** The backups made before writing; empty when nothing needed writing. */
  backups: string[];
}

export interface AgentUndoResult {
  agent: AgentId;
  restored: { path: string; restoredFrom: string; removedFile: boolean }[];
}

export interface AgentSnippet {
  agent: AgentId;
  title: string;
  /** Where the snippet goes (a file, or a shell). */
  target: string;
  text: string;
}
