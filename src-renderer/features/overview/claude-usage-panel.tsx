import { useResource } from '../../resources/resource-context';
import { CLAUDE_STATUS, CONNECTIONS } from '../../resources/shared-data';
import { UsageBars } from '../claude/usage-bars';

/**
 * The 5-hour and weekly windows of every Claude subscription, live: the same data and bars as the
 * connection cards, fed by `claude.changed` whichever tab is open.
 */
export function ClaudeUsagePanel() {
  const statuses = useResource(CLAUDE_STATUS).data ?? [];
  const subscriptions = (useResource(CONNECTIONS).data ?? []).filter((c) => c.kind === 'claude-oauth');
  return (
    <section className="overview-panel" aria-labelledby="overview-claude-title">
      <h3 id="overview-claude-title">Claude usage</h3>
      {subscriptions.length === 0 ? (
        <p className="muted small">
          No Claude subscription is connected. Add one in Connections (Import from Claude Code) to see its 5-hour and
          weekly windows here.
        </p>
      ) : (
        <ul className="overview-list">
          {subscriptions.map((c) => (
            <li key={c.id} data-testid={`overview-claude-${c.name}`}>
              <span className="strong">{c.name}</span>
              {!c.enabled && <span className="muted small"> (disabled)</span>}
              <UsageBars usage={statuses.find((s) => s.connectionId === c.id)?.usage ?? null} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
