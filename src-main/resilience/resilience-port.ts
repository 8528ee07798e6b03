import type { TargetExclusion } from '../../src-shared/domain/cooldown';
import type { UpstreamOperation } from '../kernel/provider-adapter';
import type { Target } from '../kernel/target';
import type { Admission, UpstreamOutcome, AttemptVerdict } from '../kernel/attempt-outcome';

/**
 * The resilience engine as the proxy uses it: screen targets before dispatch, admit each attempt,
 * learn from every outcome exactly once. The proxy never reads engine state itself.
 */
export interface ResiliencePort {
  screen(targets: readonly Target[], now: number): { runnable: Target[]; excluded: TargetExclusion[] };
  admit(target: Target, now: number): { ok: true; admission: Admission } | { ok: false; exclusion: TargetExclusion };
  learnFailure(
    target: Target,
    admission: Admission,
    operation: UpstreamOperation,
    outcome: UpstreamOutcome,
    now: number,
  ): AttemptVerdict;
  learnSuccess(target: Target, admission: Admission, now: number): void;
}
