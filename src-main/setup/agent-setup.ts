import type { Result } from '../../src-shared/contract/errors';
import type { AgentId } from '../../src-shared/domain/agent-setup';

/** The environment a setup reads its paths from (HOME, XDG_CONFIG_HOME, CODEX_HOME …). */
export type Env = Readonly<Record<string, string | undefined>>;

/** What every agent is pointed at: Leeway's origin (no path), a live local key, the model names Leeway serves. */
export interface SetupValues {
  proxyUrl: string;
  key: string;
  /** Combo names and connection models, for agents that list models in their config (opencode). */
  models: readonly string[];
}

/** One file an agent reads, and how Leeway's part of it is written and recognised. */
export interface AgentFile {
  path: string;
  /** The whole next text from the current one (null: no file yet); a file it cannot parse is refused, never overwritten. */
  plan(current: string | null, values: SetupValues): Result<string>;
  /** The base URL Leeway's part of the file names now (null: none); a refusal when the file cannot be parsed. */
  pointsAt(current: string | null): Result<string | null>;
}

/**
 * One coding agent's one-click setup (issue 23 §2): the files it reads, the base URL it must name to
 * come through Leeway, and a copyable snippet. The service (agent-setup-service.ts) does preview,
 * backup, apply, undo and status the same way for every agent.
 */
export interface AgentSetup {
  id: AgentId;
  files(env: Env): AgentFile[];
  /** The base URL the agent needs for this Leeway (`…/v1` for OpenAI-style clients, the origin for Gemini). */
  expectedUrl(proxyUrl: string): string;
  /** What is left to do by hand after Apply, or how the agent picks the files up. */
  note: string;
  /** The copy-paste form of the same setup, for the tray and for those who edit by hand. */
  snippet(values: Omit<SetupValues, 'models'>, env: Env): { target: string; text: string };
}

export const originOf = (proxyUrl: string): string => proxyUrl.replace(/\/+$/, '');
export const openAiBaseOf = (proxyUrl: string): string => `${originOf(proxyUrl)}/v1`;
