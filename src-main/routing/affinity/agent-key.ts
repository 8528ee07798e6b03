import type { Route, SubagentMode } from '../../../src-shared/domain/route';
import { validValue, type HeaderBag } from './session-key';

/** What Claude Code's subagents (Task tool) send besides the session id; the main agent sends neither. */
export const AGENT_HEADER = 'x-claude-code-agent-id';
export const PARENT_AGENT_HEADER = 'x-claude-code-parent-agent-id';

/** The agent a request came from: a subagent's id, and the agent that spawned it when that was a subagent too. */
export interface AgentIds {
  agent: string;
  parent: string | null;
}

/** The pin's stored session holds `session/agent`: the same 256-character bound as any session value. */
const MAX_PIN_SESSION = 256;

function headerValue(headers: HeaderBag, name: string): string | null {
  const raw = headers[name];
  if (raw === undefined) return null;
  return validValue(Array.isArray(raw) ? (raw[0] ?? '') : raw);
}

/**
 * The subagent a request names (issue 23 §3), null for the main agent or another client. An
 * unusable value counts as absent: like the session, the agent id only steers a soft preference.
 */
export function extractAgent(headers: HeaderBag): AgentIds | null {
  const agent = headerValue(headers, AGENT_HEADER);
  if (agent === null) return null;
  return { agent, parent: headerValue(headers, PARENT_AGENT_HEADER) };
}

/** The subagent mode of the route that decided (by its glob); `share` without one. */
export function subagentModeOf(routes: readonly Route[], glob: string | null): SubagentMode {
  if (glob === null) return 'share';
  return routes.find((route) => route.match === glob)?.subagents ?? 'share';
}

/**
 * What a request's pin is keyed on. `share` (the default): the session's, so its subagents stay on
 * the session's connection and its warm prompt cache. `spread`: each subagent gets `session/agent`
 * and is placed on its own; when that would be longer than a stored session may be, it shares.
 */
export function pinSessionOf(
  session: string,
  agent: string | null,
  mode: SubagentMode,
): { session: string; agent?: string } {
  if (agent === null || mode === 'share') return { session };
  const own = `${session}/${agent}`;
  return own.length > MAX_PIN_SESSION ? { session } : { session: own, agent };
}

/** The session a stored pin belongs to: its `session/agent` without the agent part. */
export function baseSessionOf(pin: { session: string; agent?: string }): string {
  if (pin.agent === undefined || !pin.session.endsWith(`/${pin.agent}`)) return pin.session;
  return pin.session.slice(0, pin.session.length - pin.agent.length - 1);
}
