/**
 * Error `type` vocabularies of the two envelopes. Anthropic: `{type:"error",error:{type,message}}`;
 * OpenAI: `{error:{message,type,code}}`, where 429s carry `code: "rate_limit_exceeded"` and the
 * type varies (`requests`, `tokens`, `insufficient_quota`), so the code is read first.
 */
export function anthropicErrorType(openaiType: string | null, openaiCode: string | null): string {
  switch (openaiCode ?? openaiType) {
    case 'rate_limit_exceeded':
    case 'rate_limit_error':
    case 'requests':
    case 'tokens':
      return 'rate_limit_error';
    case 'invalid_api_key':
    case 'authentication_error':
      return 'authentication_error';
    case 'permission_error':
    case 'permission_denied':
      return 'permission_error';
    case 'not_found_error':
    case 'model_not_found':
      return 'not_found_error';
    case 'insufficient_quota':
      return 'billing_error';
    case 'overloaded_error':
      return 'overloaded_error';
    case 'invalid_request_error':
    case 'context_length_exceeded':
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
