import type { FailureReason, FailureScope } from './classification';
import { matchesAny } from './signals';
import type { StructuredError } from './upstream-error';

/** The prompt does not fit; Claude Code compacts on exactly this error, so it must reach the client. */
export const CONTEXT_OVERFLOW_PATTERNS: readonly RegExp[] = [
  /input is too long/,
  /input too long/,
  /context.{0,40}(too long|exceed|overflow|limit)/,
  /too many tokens/,
  /prompt is too long/,
  /context window/,
  /maximum context/,
  /max.{0,20}token/,
  /token limit/,
  /request too large/,
];

/** The model is unknown, retired or not granted to this key (seed: MODEL_ACCESS_DENIED_PATTERNS). */
export const MODEL_ACCESS_DENIED_PATTERNS: readonly RegExp[] = [
  /invalid model/,
  /model.{0,80}not.{0,20}(available|found|supported|accessible)/,
  /model.{0,80}does not exist/,
  /model.{0,80}(does not support|unsupported)/,
  /unsupported model/,
  /access.{0,20}denied.{0,40}model/,
  /model.{0,40}access.{0,20}denied/,
  /please select a different model/,
  /(access|permission).{0,60}model/,
  /model.{0,60}(access|permission)/,
];

/** A refused credential, which must not read as a model problem even when it names the model. */
export const BAD_CREDENTIAL_PATTERNS: readonly RegExp[] = [
  /(invalid|incorrect|expired|missing|revoked) api[ _-]?key/,
  /api[ _-]?key (is )?(invalid|incorrect|expired|missing|revoked|not valid)/,
  /authentication (failed|error|required)/,
  /(invalid|expired|missing|revoked) (token|credentials?|bearer)/,
  /unauthorized/,
  /not authenticated/,
];

export const MALFORMED_REQUEST_PATTERNS: readonly RegExp[] = [
  /improperly formed request/,
  /invalid.{0,40}message.{0,40}format/,
  /messages must alternate/,
  /empty (message|content)/,
  /(tool|function).{0,40}name.{0,40}(blank|empty|missing)/,
  /previous_response_id does not belong/,
];

export const PARAMETER_VALIDATION_PATTERNS: readonly RegExp[] = [
  /max_tokens.{0,80}(illegal|must be|range)/,
  /parameter is illegal/,
  /is illegal.{0,40}range/,
];

/** Some gateways send their rate limits as 400. */
export const RATE_LIMIT_400_PATTERNS: readonly RegExp[] = [
  /high.?frequency/,
  /non-compliant/,
  /too many requests/,
  /rate.?limit/,
  /频繁/,
  /频率/,
];

/** NVIDIA NIM: "function … DEGRADED" — this model's deployment is down. */
const DEGRADED_FUNCTION = /function.{0,80}degraded/;

const MODEL_NOT_FOUND_CODES = new Set(['model_not_found', 'deployment_not_found']);

export interface BadRequestVerdict {
  reason: FailureReason;
  scope: FailureScope;
  ruleId: string;
}

/** RESTATE-18: a 400 (or 422) read by the classifier's own pattern sets. */
export function classifyBadRequest(text: string, structured: StructuredError | null): BadRequestVerdict {
  const code = structured?.code?.toLowerCase() ?? '';
  const type = structured?.type?.toLowerCase() ?? '';
  if (MODEL_NOT_FOUND_CODES.has(code) || type === 'not_found_error') {
    return { reason: 'model_unavailable', scope: 'model', ruleId: 'model-not-found-code' };
  }
  // Parameter checks first: "max_tokens must be ≤ 8192" is a bad parameter, not an overflow.
  if (matchesAny(text, MALFORMED_REQUEST_PATTERNS) || matchesAny(text, PARAMETER_VALIDATION_PATTERNS)) {
    return { reason: 'bad_request', scope: 'request', ruleId: 'malformed-request' };
  }
  if (matchesAny(text, CONTEXT_OVERFLOW_PATTERNS)) {
    return { reason: 'context_overflow', scope: 'request', ruleId: 'context-overflow' };
  }
  const modelAccess = matchesAny(text, MODEL_ACCESS_DENIED_PATTERNS) && !matchesAny(text, BAD_CREDENTIAL_PATTERNS);
  if (modelAccess || DEGRADED_FUNCTION.test(text)) {
    return { reason: 'model_unavailable', scope: 'model', ruleId: 'model-access-denied' };
  }
  if (matchesAny(text, RATE_LIMIT_400_PATTERNS)) {
    return { reason: 'rate_limit_exceeded', scope: 'connection', ruleId: 'rate-limit-400' };
  }
  return { reason: 'bad_request', scope: 'request', ruleId: 'bad-request' };
}
