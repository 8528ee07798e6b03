/**
 * The marker a check puts in its prompt (`conformance:<scenario>:<nonce>`) and where the fake
 * upstream finds it: in the newest user text of a Messages, Chat Completions or Responses body.
 * The nonce keeps concurrent checks apart; "follow-up" means the request answers a tool call.
 */
import { field } from '../../fake-upstream-plans';

export const SCENARIOS = [
  'text',
  'thinking',
  'thinking-tool',
  'tool',
  'keepalive',
  'error-4xx',
  'error-5xx',
  'max-tokens',
] as const;
export type Scenario = (typeof SCENARIOS)[number];

export interface Marker {
  scenario: Scenario;
  nonce: string;
  /** The newest turn carries a tool result: the client is answering this scenario's tool call. */
  followUp: boolean;
}

const PATTERN = /conformance:([a-z0-9-]+):([a-z0-9]+)/g;

/** The text a check writes into its prompt. */
export function markerText(scenario: Scenario, nonce: string): string {
  return `conformance:${scenario}:${nonce}`;
}

function isScenario(value: string): value is Scenario {
  return (SCENARIOS as readonly string[]).includes(value);
}

/** The last marker in a piece of text, if any. */
export function findMarker(text: string): { scenario: Scenario; nonce: string } | null {
  let found: { scenario: Scenario; nonce: string } | null = null;
  for (const match of text.matchAll(PATTERN)) {
    const [, scenario = '', nonce = ''] = match;
    if (isScenario(scenario)) found = { scenario, nonce };
  }
  return found;
}

/** Every string inside a JSON value, joined: a message's text whatever its block shape. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(textOf).join('\n');
  if (typeof value === 'object' && value !== null) return Object.values(value).map(textOf).join('\n');
  return '';
}

const TOOL_RESULT_TYPES = new Set(['tool_result', 'function_call_output']);

/** Whether one conversation entry is a tool's answer (Anthropic block, chat `tool` role, Responses item). */
function isToolResult(entry: unknown): boolean {
  if (field(entry, 'role') === 'tool') return true;
  if (TOOL_RESULT_TYPES.has(String(field(entry, 'type')))) return true;
  const content = field(entry, 'content');
  return Array.isArray(content) && content.some((block) => field(block, 'type') === 'tool_result');
}

/** The conversation entries of a request body in order: `messages` (Messages, Chat) or `input` (Responses). */
function entriesOf(body: unknown): unknown[] {
  const messages = field(body, 'messages');
  if (Array.isArray(messages)) return messages;
  const input = field(body, 'input');
  if (Array.isArray(input)) return input;
  return typeof input === 'string' ? [{ role: 'user', content: input }] : [];
}

/** The marker of a request: the newest user entry that names one; follow-up when a tool result came after it. */
export function markerOf(body: unknown): Marker | null {
  const entries = entriesOf(body);
  let followUp = false;
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (isToolResult(entry)) followUp = true;
    if (field(entry, 'role') !== 'user') continue;
    const found = findMarker(textOf(field(entry, 'content')));
    if (found) return { ...found, followUp };
  }
  return null;
}
