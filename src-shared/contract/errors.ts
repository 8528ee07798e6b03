/** Every refusal the core can give, in one union so both doors and the UI can switch on it. */
export const ERROR_CODES = [
  'invalid_input',
  'invalid_json',
  'body_too_large',
  'unauthorized',
  'forbidden',
  'request_timeout',
  'unsupported_media_type',
  'forbidden_host',
  'forbidden_origin',
  'not_found',
  'method_not_allowed',
  'unknown_method',
  'model_not_found',
  'no_connections',
  'no_executable_targets',
  'all_targets_cooling_down',
  'proxy_paused',
  'upstream_error',
  'upstream_timeout',
  'upstream_unreachable',
  'upstream_invalid_response',
  'storage_unavailable',
  /** Issue 21 §9: Leeway is stopping; the request was refused or ended after the shutdown grace. */
  'shutdown',
  /** Issue 24 §2: the operator cancelled the request while it was held (dashboard or tray). */
  'request_cancelled',
  'conflict',
  'lease_generation_stale',
  'lease_not_held',
  'lease_key_mismatch',
  'lease_scope_required',
  'lease_headers_invalid',
  'lease_capacity_unavailable',
  'quota_exceeded',
  // QUEUE-5/8 name these codes in capitals; kept exactly so clients and logs match the spec.
  'RATE_LIMIT_QUEUE_FULL',
  'RATE_LIMIT_QUEUE_TIMEOUT',
  'RATE_LIMIT_EXECUTION_TIMEOUT',
  'internal_error',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface AppError {
  code: ErrorCode;
  message: string;
  status?: number;
  retryAfterMs?: number;
  /** False when a client retrying soon cannot succeed (`x-should-retry: false`); absent: decided by the status. */
  shouldRetry?: boolean;
  details?: unknown;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (
  code: ErrorCode,
  message: string,
  extra: Omit<AppError, 'code' | 'message'> = {},
): Result<never> => ({
  ok: false,
  error: { code, message, ...extra },
});

/** HTTP status for a code when the error does not carry its own. */
export function statusOf(error: AppError): number {
  if (error.status !== undefined) return error.status;
  switch (error.code) {
    // no_connections (issue 21 §12): a 4xx reaches the user as written (Claude Code turns a 404 into
    // "an issue with the selected model" and calls a 5xx "usually temporary"); adding one is the fix.
    case 'invalid_input':
    case 'invalid_json':
    case 'no_connections':
      return 400;
    case 'unauthorized':
      return 401;
    case 'forbidden':
    case 'forbidden_host':
    case 'forbidden_origin':
      return 403;
    case 'not_found':
    case 'unknown_method':
    case 'model_not_found':
    case 'no_executable_targets':
      return 404;
    case 'method_not_allowed':
      return 405;
    case 'request_timeout':
      return 408;
    case 'lease_headers_invalid':
      return 400;
    case 'lease_key_mismatch':
    case 'lease_scope_required':
      return 403;
    case 'lease_generation_stale':
    case 'lease_not_held':
      return 409;
    case 'lease_capacity_unavailable':
    case 'quota_exceeded':
    case 'RATE_LIMIT_QUEUE_FULL':
      return 429;
    case 'RATE_LIMIT_QUEUE_TIMEOUT':
      return 503;
    case 'RATE_LIMIT_EXECUTION_TIMEOUT':
      return 504;
    case 'conflict':
    case 'request_cancelled':
      return 409;
    case 'body_too_large':
      return 413;
    case 'unsupported_media_type':
      return 415;
    case 'upstream_error':
    case 'upstream_unreachable':
    case 'upstream_invalid_response':
      return 502;
    case 'all_targets_cooling_down':
    case 'proxy_paused':
    case 'storage_unavailable':
    case 'shutdown':
      return 503;
    case 'upstream_timeout':
      return 504;
    case 'internal_error':
      return 500;
  }
}
