import { fail, ok } from '../../../src-shared/contract/errors';
import type { Handlers } from '../router';
import { createAgentSetupService, type AgentSetupService } from '../../setup/agent-setup-service';
import type { Env } from '../../setup/agent-setup';
import type { HandlerDeps } from './handler-deps';

type AgentSetupHandlers = Pick<
  Handlers,
  'setup.agents.list' | 'setup.agent.preview' | 'setup.agent.apply' | 'setup.agent.undo' | 'setup.agent.snippet'
>;

/** Combo names and every model a connection lists: what an agent that lists models (opencode) offers. */
function servedModels(deps: HandlerDeps): string[] {
  return [...deps.combos.list().map((c) => c.name), ...deps.connections.list().flatMap((c) => c.models)];
}

/**
 * One-click setup of codex, opencode, Qwen Code, Gemini CLI and aider (issue 23 §2), over the agent
 * setup service; `env` is read per call so the files follow the HOME Leeway runs with.
 */
export function agentSetupHandlers(deps: HandlerDeps, env: () => Env = () => deps.env): AgentSetupHandlers {
  const service: AgentSetupService = createAgentSetupService({
    env,
    now: () => deps.now(),
    proxyUrl: () => deps.info().proxyUrl,
  });
  // Only a live local key: a typo or a revoked key would leave the agent answering 401.
  const checked = (authToken: string) =>
    deps.keys.verify(authToken)
      ? ok({ key: authToken, models: servedModels(deps) })
      : fail('invalid_input', 'That is not a Leeway local key (or it was revoked); create one in the Keys tab');
  return {
    'setup.agents.list': () => ok(service.list()),
    'setup.agent.preview': ({ agent, authToken }) => {
      const values = checked(authToken);
      return values.ok ? service.preview(agent, values.value) : values;
    },
    'setup.agent.apply': ({ agent, authToken }) => {
      const values = checked(authToken);
      return values.ok ? service.apply(agent, values.value) : values;
    },
    'setup.agent.undo': ({ agent }) => service.undo(agent),
    'setup.agent.snippet': ({ agent, authToken }) => ok(service.snippet(agent, authToken ?? null)),
  };
}
