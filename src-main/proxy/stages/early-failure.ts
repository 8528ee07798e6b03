import type { AppError } from '../../../src-shared/contract/errors';
import type { FailoverHop } from '../../../src-shared/domain/request-log';

/** A failure before anything reached the client, as the learn step and the failover header name it. */
export type EarlyFailure = 'timeout' | 'unreachable' | 'reset' | 'empty_response';

/** What the client is told when an early failure ends the request (no target left, or no failover). */
export function earlyFailureError(
  name: string,
  failure: EarlyFailure,
  detail: string | null,
  hops: FailoverHop[],
): AppError {
  const code =
    failure === 'timeout'
      ? 'upstream_timeout'
      : failure === 'unreachable'
        ? 'upstream_unreachable'
        : failure === 'reset'
          ? 'upstream_error'
          : 'upstream_invalid_response';
  const what = failure === 'empty_response' ? `answered 200 with ${detail ?? 'no usable answer'}` : (detail ?? failure);
  return { code, message: `Every target failed; last: ${name} (${what})`, details: { failover: hops } };
}
