-- Issue 23 §3: Claude Code subagents (x-claude-code-agent-id / x-claude-code-parent-agent-id).
-- The activity row records which agent sent a request; NULL for the main agent and other clients.
ALTER TABLE request_log ADD COLUMN agent_id TEXT NULL CHECK (agent_id IS NULL OR length(agent_id) BETWEEN 1 AND 256);
ALTER TABLE request_log ADD COLUMN parent_agent_id TEXT NULL
  CHECK (parent_agent_id IS NULL OR length(parent_agent_id) BETWEEN 1 AND 256);

-- A route's subagent placement: NULL or 'share' keeps subagents on the session's pin, 'spread'
-- gives each its own pin (session/agent).
ALTER TABLE routes ADD COLUMN subagents TEXT NULL CHECK (subagents IS NULL OR subagents IN ('share', 'spread'));

-- The agent a spread subagent's pin belongs to (its session column then holds session/agent); NULL
-- for a session's own pin. Forward-only.
ALTER TABLE session_account_affinity ADD COLUMN agent TEXT NULL CHECK (agent IS NULL OR length(agent) >= 1);
