/**
 * Error `type` vocabularies of the three envelopes. Anthropic: `{type:"error",error:{type,message}}`;
 * OpenAI: `{error:{message,type,code}}`, where 429s carry `code: "rate_limit_exceeded"` and the
 * type varies (`requests`, `tokens`, `insufficient_quota`), so the code is read first. Google (the
 * Gemini API): `{error:{code,message,status,details}}`, `status` a google.rpc.Code name.
 */
export function anthropicErrorType(openaiType: string | null, openaiCode: string | null): string {
  switch (openaiCode ?? openaiType) {
    case 'rate_limit_exceeded':
    case 'rate_limit_error':
    case 'requests':
    case 'tokens':
    case 'RESOURCE_EXHAUSTED':
      return 'rate_limit_error';
    case 'invalid_api_key':
    case 'authentication_error':
    case 'UNAUTHENTICATED':
      return 'authentication_error';
    case 'permission_error':
    case 'permission_denied':
    case 'PERMISSION_DENIED':
      return 'permission_error';
    case 'not_found_error':
    case 'model_not_found':
    case 'NOT_FOUND':
      return 'not_found_error';
    case 'insufficient_quota':
      return 'billing_error';
    case 'overloaded_error':
    case 'UNAVAILABLE':
      return 'overloaded_error';
    case 'DEADLINE_EXCEEDED':
      return 'timeout_error';
    case 'invalid_request_error':
    case 'context_length_exceeded':
    case 'INVALID_ARGUMENT':
    case 'FAILED_PRECONDITION':
    case 'OUT_OF_RANGE':
      return 'invalid_request_error';
    default:
      return openaiType === 'invalid_request_error' ? 'invalid_request_error' : 'api_error';
  }
}

export interface OpenAiErrorKind {
  type: string;
  /** The Anthropic type, kept so nothing is lost for a client that logs it. */
  code: string;
}

export function openaiErrorKind(anthropicType: string | null): OpenAiErrorKind {
  const code = anthropicType ?? 'api_error';
  switch (anthropicType) {
    case 'invalid_request_error':
    case 'request_too_large':
      return { type: 'invalid_request_error', code };
    case 'authentication_error':
    case 'permission_error':
    case 'not_found_error':
      return { type: anthropicType, code };
    case 'rate_limit_error':
      return { type: 'rate_limit_exceeded', code: 'rate_limit_exceeded' };
    case 'billing_error':
      return { type: 'insufficient_quota', code: 'insufficient_quota' };
    default:
      // api_error, overloaded_error, timeout_error and anything newer: the server's fault.
      return { type: 'server_error', code };
  }
}

/** google.rpc.Code names by the HTTP status the Gemini API answers with them. */
const GOOGLE_STATUS: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  412: 'FAILED_PRECONDITION',
  413: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
  529: 'UNAVAILABLE',
};

/** The Google `status` for an HTTP status (another 4xx: FAILED_PRECONDITION; another 5xx: INTERNAL). */
export function googleStatusOf(httpStatus: number): string {
  return GOOGLE_STATUS[httpStatus] ?? (httpStatus >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');
}

/** The HTTP status a Google error stands for when only the Anthropic type is known (an error event in a stream). */
export function httpStatusOfAnthropicType(type: string | null): number {
  switch (type) {
    case 'invalid_request_error':
      return 400;
    case 'authentication_error':
      return 401;
    case 'billing_error':
      return 402;
    case 'permission_error':
      return 403;
    case 'not_found_error':
      return 404;
    case 'request_too_large':
      return 413;
    case 'rate_limit_error':
      return 429;
    case 'timeout_error':
      return 504;
    case 'overloaded_error':
      return 503;
    default:
      return 500;
  }
}
