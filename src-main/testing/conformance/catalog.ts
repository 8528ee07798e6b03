/** Every row of the table, in the order it prints: by concern, then by client. */
import { anthropicEdgeChecks } from './checks/anthropic-sdk-edges';
import { anthropicMessageChecks } from './checks/anthropic-sdk-messages';
import { claudeCodeChecks } from './checks/claude-code';
import { codexChecks } from './checks/codex';
import { geminiChecks } from './checks/gemini';
import { httpChecks } from './checks/http';
import { openaiChecks } from './checks/openai-sdk';
import { sessionChecks } from './checks/sessions';
import type { Check } from './checks/types';

const ORDER = [
  'thinking-json',
  'thinking-stream',
  'thinking-claude-code',
  'reasoning-codex',
  'tool-fragments-anthropic',
  'tool-fragments-openai',
  'tool-fragments-claude-code',
  'tool-fragments-codex',
  'keepalive-anthropic',
  'keepalive-openai',
  'count-tokens',
  'models-anthropic',
  'models-openai',
  'discovery-claude-code',
  'head-root',
  'beta-sdk',
  'beta-claude-code',
  'error-4xx-anthropic',
  'error-5xx-anthropic',
  'error-4xx-openai',
  'error-5xx-openai',
  'error-claude-code',
  'session-claude-code',
  'session-codex',
  'usage-stream-anthropic',
  'usage-stream-openai',
  'stop-reasons-anthropic',
  'stop-reasons-openai',
  'gemini-sdk',
  'gemini-cli',
];

const ALL: Check[] = [
  ...anthropicMessageChecks,
  ...anthropicEdgeChecks,
  ...openaiChecks,
  ...claudeCodeChecks,
  ...codexChecks,
  ...sessionChecks,
  ...httpChecks,
  ...geminiChecks,
];

/** The checks in table order; a check missing from ORDER goes last rather than vanish. */
export const CHECKS: readonly Check[] = [...ALL].sort((a, b) => rank(a.id) - rank(b.id));

function rank(id: string): number {
  const at = ORDER.indexOf(id);
  return at === -1 ? ORDER.length : at;
}
