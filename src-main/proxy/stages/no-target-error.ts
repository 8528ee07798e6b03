import type { AppError } from '../../../src-shared/contract/errors';
import type { TargetExclusion } from '../../../src-shared/domain/cooldown';
import type { Catalog } from '../../kernel/catalog';
import { quoteUserText } from '../accept/quote-user-text';

/** The exclusions behind each cooling refusal this module made, for the cooldown wait (CONC-7). */
const behind = new WeakMap<AppError, readonly TargetExclusion[]>();

/** The exclusions a `all_targets_cooling_down` refusal was made from; null for any other error. */
export function exclusionsBehind(error: AppError): readonly TargetExclusion[] | null {
  return behind.get(error) ?? null;
}

/** No target can run: cooling targets give a 503 with the earliest return (ROUTE-6), others a 404 (ROUTE-8). */
export function noTargetError(model: string, excluded: readonly TargetExclusion[]): AppError {
  const waits = excluded.map((e) => e.retryAfterSeconds).filter((s): s is number => s !== null);
  if (waits.length > 0) {
    const soonest = Math.min(...waits);
    const reasons = excluded.map(
      (e) => `${e.connection}: ${e.reason}${e.retryAfterSeconds === null ? '' : ` (${e.retryAfterSeconds}s)`}`,
    );
    const error: AppError = {
      code: 'all_targets_cooling_down',
      message: `Every target for ${quoteUserText(model)} is cooling down; the first is back in ${soonest}s. ${reasons.join('; ')}`,
      retryAfterMs: soonest * 1000,
      details: { excluded },
    };
    behind.set(error, excluded);
    return error;
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
