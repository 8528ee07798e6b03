import { asArray, asNumber, asObject, asString } from './json-narrow';

/**
 * Error bodies of every dialect Leeway reads, told apart from answers: Anthropic's
 * `{type:"error",error:{type,message}}`, OpenAI's `{error:{message,type,code}}` (OpenAI-compatible
 * gateways put a number in `code`, e.g. OpenRouter's `{"error":{"code":429}}`; Google's
 * `{error:{code,message,status}}` is one of those), and a Responses
 * object that failed (`status:"failed"` with its `error`). Upstreams send these with a 200 too
 * (issue 21 §1); such an answer is learned and failed over like the status it stands for.
 */
export function isErrorObject(body: unknown): boolean {
  const value = asObject(body);
  if (value === null) return false;
  const error = asObject(value.error);
  if (error === null) return false;
  if (value.type === 'error') return true;
  // An answer that also carries its content is an answer (some gateways add `error: {}` beside it).
  if (hasItems(value.choices) || hasItems(value.content) || hasItems(value.candidates)) return false;
  if (value.object === 'response') return value.status === 'failed';
  return asString(error.message) !== null || error.code !== undefined || asString(error.type) !== null;
}

function hasItems(value: unknown): boolean {
  const list = asArray(value);
  return list !== null && list.length > 0;
}

/** Status each error `type` or `code` stands for, in both vocabularies (error-types.ts maps between them). */
const STATUS_OF: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  context_length_exceeded: 400,
  authentication_error: 401,
  invalid_api_key: 401,
  billing_error: 402,
  permission_error: 403,
  permission_denied: 403,
  not_found_error: 404,
  model_not_found: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  rate_limit_exceeded: 429,
  requests: 429,
  tokens: 429,
  insufficient_quota: 429,
  api_error: 500,
  server_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
  // Google's google.rpc.Code names (the Gemini API's `error.status`).
  INVALID_ARGUMENT: 400,
  FAILED_PRECONDITION: 400,
  OUT_OF_RANGE: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ABORTED: 409,
  ALREADY_EXISTS: 409,
  RESOURCE_EXHAUSTED: 429,
  CANCELLED: 499,
  UNKNOWN: 500,
  INTERNAL: 500,
  DATA_LOSS: 500,
  UNIMPLEMENTED: 501,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
};

/** The status an error body stands for: a numeric code or status it names, else its type or code; 500 when it says nothing known. */
export function statusOfErrorObject(body: unknown): number {
  const value = asObject(body);
  const error = asObject(value?.error);
  for (const candidate of [error?.code, error?.status, value?.status]) {
    const n = asNumber(candidate);
    if (n !== null && n >= 400 && n <= 599) return n;
  }
  for (const candidate of [error?.code, error?.type, error?.status]) {
    const name = asString(candidate);
    const status = name === null ? undefined : STATUS_OF[name];
    if (status !== undefined) return status;
  }
  return 500;
}
