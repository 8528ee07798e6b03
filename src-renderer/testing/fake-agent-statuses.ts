import { AGENT_IDS, AGENT_TITLES, type AgentSetupStatus } from '../../src-shared/domain/agent-setup';

/** Where each agent's files are on the fake machine (HOME = /home/user). */
const PATHS: Record<AgentSetupStatus['agent'], string[]> = {
  codex: ['/home/user/.codex/config.toml'],
  opencode: ['/home/user/.config/opencode/opencode.json'],
  'qwen-code': ['/home/user/.qwen/settings.json', '/home/user/.qwen/.env'],
  'gemini-cli': ['/home/user/.gemini/settings.json', '/home/user/.gemini/.env'],
  aider: ['/home/user/.aider.conf.yml'],
};

/** Every agent not configured yet, no backups: a machine Leeway never touched. */
export function fakeAgentStatuses(): AgentSetupStatus[] {
  return AGENT_IDS.map((agent) => ({
    agent,
    title: AGENT_TITLES[agent],
    paths: PATHS[agent],
    state: 'not-configured',
    detail: null,
    backup: null,
    note: `The note for ${AGENT_TITLES[agent]}.`,
  }));
}
