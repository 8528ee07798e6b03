import type { Target } from '../../kernel/target';
import type { ProxyContext } from '../proxy-context';
import { withExecutionBackstop } from '../../resilience/queue/execution-backstop';
import { attemptCandidate, dropObserved, type Seen } from './attempt';
import type { CandidateAdmission } from './admit';
import type { RequestFrame } from './frame';

/**
 * The attempt under the queue's execution backstop (QUEUE-4/5): past `executionMs` from dispatch
 * the attempt is aborted, never learned from as the connection's failure (a local limit), and
 * answered with `RATE_LIMIT_EXECUTION_TIMEOUT` (504) unless another candidate may still serve.
 */
export function attemptWithinBudget(
  ctx: ProxyContext,
  frame: RequestFrame,
  target: Target,
  admitted: Extract<CandidateAdmission, { kind: 'admitted' }>,
): Promise<Seen> {
  // Not async: without a backstop the attempt's own promise is returned as is (no extra ticks).
  if (admitted.executionMs === null) return attemptCandidate(ctx, frame, target, frame.signal);
  return attemptWithBackstop(ctx, frame, target, admitted.executionMs);
}

async function attemptWithBackstop(
  ctx: ProxyContext,
  frame: RequestFrame,
  target: Target,
  executionMs: number,
): Promise<Seen> {
  const run = await withExecutionBackstop(frame.signal, executionMs, (signal) =>
    attemptCandidate(ctx, frame, target, signal),
  );
  if (!run.expired) return run.value;
  dropObserved(run.value.observation);
  return { ...run.value, observation: { kind: 'execution-timeout', executionMs } };
}
