import type { ClaudeConnectionStatus } from '../../../src-shared/domain/claude';
import { lastResetText } from './claude-format';

/** The last attempt to claim the subscription's limit reset, when there was one. */
export function LastReset({ lastReset }: { lastReset: ClaudeConnectionStatus['lastReset'] }) {
  if (!lastReset) return null;
  const { text, granted } = lastResetText(lastReset);
  return (
    <div className={granted ? 'small last-reset granted' : 'small last-reset muted'} title={lastReset.outcome}>
      {text}
    </div>
  );
}
