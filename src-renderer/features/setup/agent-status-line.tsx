import type { AgentSetupStatus } from '../../../src-shared/domain/agent-setup';

/** One line per state: where the agent's files send it now. */
export function AgentStatusLine({ status }: { status: AgentSetupStatus }) {
  switch (status.state) {
    case 'configured':
      return <span className="badge ok">Configured</span>;
    case 'not-configured':
      return <span className="badge">Not configured</span>;
    case 'elsewhere':
      return (
        <span className="badge warn">
          Configured for another URL: <code>{status.detail}</code>
        </span>
      );
    case 'unreadable':
      return <span className="badge err">Cannot read its settings: {status.detail}</span>;
  }
}

/** What Undo would do, from the backups on disk (so it survives a reload). */
export function undoText(backup: NonNullable<AgentSetupStatus['backup']>): string {
  return backup.files
    .map((f) => (f.removesFile ? `removes ${f.path} (there was none)` : `puts back ${f.path} from ${f.backupPath}`))
    .join('; ');
}
