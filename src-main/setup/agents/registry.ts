import type { AgentSetup } from '../agent-setup';
import { aiderSetup } from './aider';
import { codexSetup } from './codex';
import { geminiCliSetup } from './gemini-cli';
import { opencodeSetup } from './opencode';
import { qwenCodeSetup } from './qwen-code';

/** Every agent with a one-click setup, in the order of AGENT_IDS (the Setup tab's and the tray's order). */
export const AGENT_SETUPS: readonly AgentSetup[] = [
  codexSetup,
  opencodeSetup,
  qwenCodeSetup,
  geminiCliSetup,
  aiderSetup,
];
