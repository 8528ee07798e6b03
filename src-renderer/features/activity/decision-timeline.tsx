import { useMemo } from 'react';
import { entryText, type DecisionRecord } from '../../../src-shared/domain/decision';
import type { ResourceSpec } from '../../resources/resource';
import { useResource } from '../../resources/resource-context';
import { formatLatency } from './format-activity';

/** One request's record: written once, so read once per request id (no event changes it). */
function decisionSpec(id: number): ResourceSpec<'activity.decision'> {
  return { method: 'activity.decision', input: { id } };
}

function Timeline({ decision: d }: { decision: DecisionRecord }) {
  return (
    <>
      <ol className="attempts decision-timeline" aria-label="Decision">
        {d.entries.map((e, index) => (
          <li
            key={index}
            data-testid={`decision-${index + 1}`}
            className={e.kind === 'skipped' ? 'decision-skip muted' : 'decision-attempt'}
          >
            {entryText(e)}
          </li>
        ))}
      </ol>
      {d.omitted > 0 && <p className="muted small">… and {d.omitted} more candidates (not kept)</p>}
      <p className="small">
        {d.served === null ? `Not served (status ${d.status}).` : `Served by ${d.served}.`}
        {d.queuedMs > 0 && ` Queued ${formatLatency(d.queuedMs)} for a slot.`}
        {d.heldMs > 0 && ` Held ${formatLatency(d.heldMs)} waiting out cooldowns.`}
      </p>
    </>
  );
}

/**
 * Issue 24 §1: why the request went where it went — every candidate in order, skipped (and why:
 * cooling, quota, breaker, lease…) or tried (and how that ended). Older rows have no record.
 */
export function DecisionTimeline({ id }: { id: number }) {
  const spec = useMemo(() => decisionSpec(id), [id]);
  const { data, error } = useResource(spec);
  return (
    <section aria-label="Why this connection">
      <h4 className="attempts-title">Why this connection</h4>
      {data ? (
        <Timeline decision={data.decision} />
      ) : error ? (
        <p className="muted">
          {error.code === 'not_found' ? 'No decision record was kept for this request.' : error.message}
        </p>
      ) : (
        <p className="muted">Loading…</p>
      )}
    </section>
  );
}
