import type { ResourceSpec } from '../../resources/resource';
import { useResource } from '../../resources/resource-context';
import { AgentSetupRow } from './agent-setup-row';

/** Each agent's files, whether they point here, and what Undo would restore (read from disk). */
export const AGENT_SETUP_LIST: ResourceSpec<'setup.agents.list'> = { method: 'setup.agents.list' };

/** codex, opencode, Qwen Code, Gemini CLI and aider, each set up in one click with the Setup tab's key (issue 23 §2). */
export function AgentSetupList({ authToken }: { authToken: string }) {
  const agents = useResource(AGENT_SETUP_LIST).data;
  if (!agents) return null;
  return (
    <section aria-labelledby="agents-setup-title">
      <h3 id="agents-setup-title">Other coding agents</h3>
      <p className="muted small">
        Preview shows the exact change; Apply merges Leeway&apos;s entries into the agent&apos;s own files (every other
        setting stays) after backing each file up, and Undo puts the backup back.
      </p>
      {agents.map((status) => (
        <AgentSetupRow key={status.agent} status={status} authToken={authToken} />
      ))}
    </section>
  );
}
