import type { AppError } from '../../../src-shared/contract/errors';
import type { TargetExclusion } from '../../../src-shared/domain/cooldown';
import type { Catalog } from '../../kernel/catalog';
import { quoteUserText } from '../accept/quote-user-text';

/**
 * Why nothing can run: `cooling` when timers explain it (a wait may turn it into an answer, CONC-7,
 * so it carries the exclusions it was made from), `refused` otherwise.
 */
export type NoTarget =
  { kind: 'cooling'; error: AppError; excluded: readonly TargetExclusion[] } | { kind: 'refused'; error: AppError };

/** No target can run: cooling targets give a 503 with the earliest return (ROUTE-6), others a 404 (ROUTE-8). */
export function noTarget(model: string, excluded: readonly TargetExclusion[]): NoTarget {
  const error = noTargetError(model, excluded);
  return error.code === 'all_targets_cooling_down' ? { kind: 'cooling', error, excluded } : { kind: 'refused', error };
}

/** The refusal alone, for a door that never waits (the lease door). */
export function noTargetError(model: string, excluded: readonly TargetExclusion[]): AppError {
  const waits = excluded.map((e) => e.retryAfterSeconds).filter((s): s is number => s !== null);
  if (waits.length > 0) {
    const soonest = Math.min(...waits);
    const reasons = excluded.map(
      (e) => `${e.connection}: ${e.reason}${e.retryAfterSeconds === null ? '' : ` (${e.retryAfterSeconds}s)`}`,
    );
    return {
      code: 'all_targets_cooling_down',
      message: `Every target for ${quoteUserText(model)} is cooling down; the first is back in ${soonest}s. ${reasons.join('; ')}`,
      retryAfterMs: soonest * 1000,
      details: { excluded },
    };
  }
  return {
    code: 'no_executable_targets',
    message: `No connection can serve ${quoteUserText(model)} right now`,
    details: { excluded },
  };
}

/**
 * Issue 21 §12: no connection at all, whatever the model: say what to do and where, instead of
 * blaming the model. Null once any connection exists (every one disabled stays ROUTE-8's 404
 * `no_executable_targets`). Only refusal paths call it, so a served request never pays for it.
 */
export function noConnectionsError(catalog: Catalog, dashboardUrl: string | undefined): AppError | null {
  if (catalog.connections.length > 0) return null;
  // The address alone: the token that opens it is a secret, printed on the terminal at start.
  const where = dashboardUrl === undefined ? 'the dashboard' : `the dashboard at ${dashboardUrl}`;
  return {
    code: 'no_connections',
    message: `No connections are set up in Leeway: add one in ${where} or in a config file (leeway start --config <file>)`,
  };
}
